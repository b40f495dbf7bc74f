// The known-hosts validator for host names a user or a file gives (HostNameRule). Beyond "never
// crashes": an accepted name is one plain name that ssh would match only as itself (no
// pattern, list, negation, whitespace or control character), and `[host]:port` gives back
// exactly that host and port.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if HostNameRule.problem(text) == nil {
        precondition(!HostPatternList.hasWildcards(text) && !text.contains(",") && !text.unicodeScalars.contains(where: PrintableText.isUnsafe)
                     && !text.contains(" ") && !text.utf8.contains(0), "an accepted name holds a pattern, list or control character")
        let lookup = HostLookupName(host: text)
        precondition(HostPatternList.match(name: lookup.text, patterns: text) == .matched, "an accepted name does not match itself")
        precondition(HostPatternList.match(name: "other" + lookup.text, patterns: text) == .noMatch, "an accepted name matches another name")
    }
    if let lookup = try? HostNameRule.lookup(text) {
        precondition(HostNameRule.problem(lookup.host) == nil, "lookup returned an invalid host")
        if text.hasPrefix("[") { precondition(lookup.port != 0 && text == "[\(text.dropFirst().prefix(while: { $0 != "]" }))]:\(lookup.port)") }
    }
    _ = try? HostNameRule.lookup(text, port: 2222)
    _ = PrintableText.quoted(text)
}
