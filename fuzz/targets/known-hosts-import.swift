// The known_hosts import path short of SQLite (docs/formats.md, "known_hosts"): a whole file split
// into lines as the import splits it (a NUL ends a line's text), each line parsed, its key
// decoded, its host field split into stored names (KnownHostsHostField), and the decision
// made over what was read. Beyond "never crashes", the property the import relies on:
// every plain name split out of a field matches, as its own lookup, exactly as the whole
// field does under OpenSSH's matcher.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    var records: [HostKeyRecord] = []
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0a { end += 1 }
        let line = bytes[start..<end]
        start = end + 1
        guard case .entry(let l)? = try? KnownHostsLine.parse(bytes: line) else { continue }
        if let entry = try? KnownHostsEntry(line: l) { records.append(HostKeyRecord(entry)) }
        guard let names = try? KnownHostsHostField.names(of: l.hosts) else { continue }
        for n in names where n.plain {
            let lookup = HostLookupName(host: n.pattern, port: n.port)
            precondition(HostNameRule.problem(lookup.host) == nil, "a split name is not a plain host name")
            precondition(HostPatternList.match(name: lookup.text, patterns: l.hosts) == .matched,
                         "a split name does not match its own field: \(n.pattern) \(n.port) in \(l.hosts.debugDescription)")
        }
        for n in names where !n.plain && n.hashed == nil {
            precondition(n.pattern == l.hosts, "a field kept whole was changed")
        }
    }
    let key = PublicKey(.ed25519(publicKey: [UInt8](repeating: 7, count: 32)))
    _ = HostKeyPolicy.decide(.plain(key), records: records, hostName: "host.example", now: 0)
}
