// known_hosts lines (ssh-formats.md §5.2–5.5): the grammar, the key layer, the host-field
// matchers (patterns, hashed names, [host]:port) — every line of the input in turn.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    var start = 0
    while start <= bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0a { end += 1 }
        let line = bytes[start..<end]
        if case .entry(let l)? = try? KnownHostsLine.parse(bytes: line) {
            _ = try? KnownHostsEntry(line: l)
            _ = l.matches(lookup: "host.example")
            _ = l.matches(lookup: "[host.example]:2222")
            _ = l.text
            if let hashed = HashedHostName(field: l.hosts) { _ = HashedNameMatcher(lookup: "host.example").matches(hashed) }
        }
        // The host-field matchers on raw text too (the first token as patterns, the rest as a name).
        let text = String(decoding: line, as: UTF8.self)
        let space = text.firstIndex(of: " ") ?? text.endIndex
        _ = HostPatternList.match(name: String(text[space...]), patterns: String(text[..<space]))
        _ = HostLookupName.parseBracketed(text)
        _ = try? PresentedHostKey.parse(text)
        start = end + 1
    }
}
