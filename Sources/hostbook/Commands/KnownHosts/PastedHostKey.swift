// `--key` as people paste it: a `.pub` line (`TYPE BASE64 [comment]`), or a line as
// ssh-keyscan prints it, with the host field first (`host TYPE BASE64`, `[host]:port TYPE
// BASE64`, also a hashed `|1|...` field from `ssh-keyscan -H`). ssh-keyscan's `# host:22
// SSH-2.0-...` comment lines and blank lines are ignored, so its output for one key type
// can be pasted whole. A host field that does not name HOST is refused (exit 2): that key
// was fetched from somewhere else.
import HostStore
import KeyFormats

enum PastedHostKey {
    static let hint = "Give the host key as --key \"TYPE BASE64\", e.g. from 'ssh-keyscan HOST'."

    static func parse(_ text: String, for lookup: HostLookupName) throws -> PresentedHostKey {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).filter { line in
            let t = line.drop(while: { $0 == " " || $0 == "\t" })
            return !t.isEmpty && !t.hasPrefix("#")
        }
        guard lines.count <= 1 else {
            throw CLIError.usage("--key holds \(lines.count) lines; give one key", hint: "Pick one line of the ssh-keyscan output, e.g. its ssh-ed25519 line.")
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
            throw CLIError.usage("--key is not a valid host key: \(e.reason)", hint: hint)
        }
        guard parsed.marker == .none else {
            throw CLIError.usage("--key is a \(parsed.marker.token) line, not a host key", hint: hint)
        }
        guard parsed.matches(lookup: lookup.text) else {
            throw CLIError.usage("the --key line is for '\(PrintableText.quoted(parsed.hosts))', not \(KnownHostsAccess.describe(lookup))",
                                 hint: "Scan the host you mean (ssh-keyscan -p PORT HOST), or give the key as \"TYPE BASE64\".")
        }
        return try pub(parsed.keyType + " " + parsed.keyBase64)
    }

    private static func pub(_ text: String) throws -> PresentedHostKey {
        do {
            return try PresentedHostKey.parse(text)
        } catch let e as KeyFormatError {
            throw CLIError.usage("--key is not a valid host key: \(e.reason)", hint: hint)
        }
    }
}
