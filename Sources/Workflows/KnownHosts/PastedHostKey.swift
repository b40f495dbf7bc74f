// `--key` as people paste it: a `.pub` line (`TYPE BASE64 [comment]`), or a line as
// ssh-keyscan prints it, with the host field first (`host TYPE BASE64`, `[host]:port TYPE
// BASE64`, also a hashed `|1|...` field from `ssh-keyscan -H`). ssh-keyscan's `# host:22
// SSH-2.0-...` comment lines and blank lines are ignored, so its output for one key type
// can be pasted whole. A host field that does not name HOST is refused
// (`KnownHostsRefusal.pastedKeyForAnotherHost`): that key was fetched from somewhere else.
import KeyFormats

public enum PastedHostKey {
    public static func parse(_ text: String, for lookup: HostLookupName) throws -> PresentedHostKey {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).filter { line in
            let t = line.drop(while: { $0 == " " || $0 == "\t" })
            return !t.isEmpty && !t.hasPrefix("#")
        }
        guard lines.count <= 1 else {
            throw KnownHostsRefusal.pastedKeyLines(lines.count)
        }
        let line = lines.first.map(String.init) ?? ""
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        // `host TYPE BASE64 ...`: the second word is a key type and the first is not.
        if words.count >= 3, KnownHostsLine.knownKeyTypes.contains(String(words[1])),
           !KnownHostsLine.knownKeyTypes.contains(String(words[0])) {
            return try hostFirst(line, for: lookup)
        }
        return try pub(line)
    }

    private static func hostFirst(_ line: String, for lookup: HostLookupName) throws -> PresentedHostKey {
        let parsed: KnownHostsLine
        do {
            guard case .entry(let l) = try KnownHostsLine.parse(line) else { return try pub(line) }
            parsed = l
        } catch let e as KeyFormatError {
            throw KnownHostsRefusal.pastedKeyInvalid(reason: e.reason)
        }
        guard parsed.marker == .none else {
            throw KnownHostsRefusal.pastedKeyMarker(token: parsed.marker.token)
        }
        guard parsed.matches(lookup: lookup.text) else {
            throw KnownHostsRefusal.pastedKeyForAnotherHost(hosts: parsed.hosts, lookup: lookup)
        }
        return try pub(parsed.keyType + " " + parsed.keyBase64)
    }

    private static func pub(_ text: String) throws -> PresentedHostKey {
        do {
            return try PresentedHostKey.parse(text)
        } catch let e as KeyFormatError {
            throw KnownHostsRefusal.pastedKeyInvalid(reason: e.reason)
        }
    }
}
