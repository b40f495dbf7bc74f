// One known_hosts line, first layer: the grammar of docs/formats.md, "Line grammar"
// (hostfile.c hostkeys_foreach_file), without decoding the key blob.
//
//   line    = [ws] ( comment | blank | entry )
//   entry   = [marker ws] hosts ws keytype ws base64 [ws comment-text]
//   marker  = "@cert-authority" | "@revoked"
//
// The key type must be one OpenSSH knows and a base64 token must follow, as in ssh-keygen;
// the blob itself is decoded by `KnownHostsEntry` (second layer), because ssh-keygen -F
// matches lines whose blob is broken while ssh itself skips them.

public struct KnownHostsLine: Sendable, Equatable {
    public enum Marker: String, Sendable, CaseIterable {
        case none = ""
        case certAuthority = "cert-authority"
        case revoked = "revoked"

        /// The marker as written at the start of a line (`@cert-authority`), or "".
        public var token: String { self == .none ? "" : "@" + rawValue }
    }

    /// What a physical line holds.
    public enum Content: Sendable, Equatable {
        case blank
        case comment
        case entry(KnownHostsLine)
    }

    public let marker: Marker
    /// The host field: a comma-separated pattern list, or one hashed name.
    public let hosts: String
    public let keyType: String
    public let keyBase64: String
    /// The rest of the line after the key, trimmed; "" when absent.
    public let comment: String

    public init(marker: Marker, hosts: String, keyType: String, keyBase64: String, comment: String) {
        self.marker = marker
        self.hosts = hosts
        self.keyType = keyType
        self.keyBase64 = keyBase64
        self.comment = comment
    }

    /// Key type names OpenSSH 9.2's known_hosts reader accepts (sshkey_read →
    /// sshkey_type_from_name: the full name of every key implementation, signature-only
    /// names included; *verified* with `ssh-keygen -l -F`: `rsa-sha2-512`,
    /// `webauthn-sk-ecdsa-sha2-nistp256@openssh.com` and the rsa-sha2 certificate names are
    /// read, short names such as `RSA` are not). The blob must then be a key of the same
    /// kind (`keyKind`).
    public static let knownKeyTypes: Set<String> = Set(keyKinds.keys)

    /// For each accepted type name, the type written inside the blob that it stands for.
    public static let keyKinds: [String: String] = {
        var kinds: [String: String] = [:]
        let plain = ["ssh-ed25519", "sk-ssh-ed25519@openssh.com", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
                     "ecdsa-sha2-nistp521", "sk-ecdsa-sha2-nistp256@openssh.com", "ssh-dss", "ssh-rsa"]
        for t in plain {
            kinds[t] = t
            kinds[t.replacingSuffix("@openssh.com") + "-cert-v01@openssh.com"] = t.replacingSuffix("@openssh.com") + "-cert-v01@openssh.com"
        }
        kinds["rsa-sha2-256"] = "ssh-rsa"
        kinds["rsa-sha2-512"] = "ssh-rsa"
        kinds["webauthn-sk-ecdsa-sha2-nistp256@openssh.com"] = "sk-ecdsa-sha2-nistp256@openssh.com"
        kinds["rsa-sha2-256-cert-v01@openssh.com"] = "ssh-rsa-cert-v01@openssh.com"
        kinds["rsa-sha2-512-cert-v01@openssh.com"] = "ssh-rsa-cert-v01@openssh.com"
        return kinds
    }()

    /// Parses one line (without its `\n`; a trailing `\r` is ignored). Throws
    /// `KeyFormatError.invalid` saying what is wrong; never traps on any input.
    public static func parse(_ text: String) throws -> Content {
        try parse(bytes: Array(text.utf8)[...])
    }

    /// ssh reads the line with getline and then treats it as a C string: a NUL byte ends
    /// the line there (a NUL in the host field leaves no key type: the line is invalid).
    public static func parse(bytes line: ArraySlice<UInt8>) throws -> Content {
        var end = line.firstIndex(of: 0) ?? line.endIndex
        while end > line.startIndex && (line[end - 1] == 0x0d || line[end - 1] == 0x0a) { end -= 1 }
        var i = line.startIndex
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        func skipSpace() { while i < end && isSpace(line[i]) { i += 1 } }
        func token() -> ArraySlice<UInt8> {
            let s = i
            while i < end && !isSpace(line[i]) { i += 1 }
            return line[s..<i]
        }
        skipSpace()
        if i == end { return .blank }
        if line[i] == UInt8(ascii: "#") { return .comment }

        var marker = Marker.none
        if line[i] == UInt8(ascii: "@") {
            let word = token()
            switch String(decoding: word, as: UTF8.self) {
            case "@cert-authority": marker = .certAuthority
            case "@revoked": marker = .revoked
            default:
                throw KeyFormatError.invalid("unknown marker '\(printable(word))' (expected @cert-authority or @revoked)")
            }
            skipSpace()
            guard i < end else { throw KeyFormatError.invalid("no host names after the marker") }
        }
        let hosts = token()
        skipSpace()
        let type = token()
        guard !type.isEmpty else { throw KeyFormatError.invalid("no key type after the host names") }
        let typeName = String(decoding: type, as: UTF8.self)
        guard knownKeyTypes.contains(typeName) else {
            throw KeyFormatError.invalid("unknown key type '\(printable(type))'")
        }
        skipSpace()
        let b64 = token()
        guard !b64.isEmpty else { throw KeyFormatError.invalid("no key data after the key type \(typeName)") }
        skipSpace()
        var commentEnd = end
        while commentEnd > i && isSpace(line[commentEnd - 1]) { commentEnd -= 1 }
        return .entry(KnownHostsLine(marker: marker,
                                     hosts: String(decoding: hosts, as: UTF8.self),
                                     keyType: typeName,
                                     keyBase64: String(decoding: b64, as: UTF8.self),
                                     comment: String(decoding: line[i..<commentEnd], as: UTF8.self)))
    }

    /// True when this line's host field matches `lookup` exactly as ssh-keygen -F does: a
    /// hashed field is compared with the HMAC of the name as given; a pattern list is matched
    /// case-insensitively with `*`, `?` and `!` (match.c match_hostname; hostfile.c host_hash).
    public func matches(lookup: String) -> Bool {
        if HashedHostName.looksHashed(hosts) {
            return HashedHostName(field: hosts)?.matches(lookup) ?? false
        }
        return HostPatternList.match(name: lookup, patterns: hosts) == .matched
    }

    /// The line as written to a file (no newline).
    public var text: String {
        var parts: [String] = []
        if marker != .none { parts.append(marker.token) }
        parts += [hosts, keyType, keyBase64]
        if !comment.isEmpty { parts.append(comment) }
        return parts.joined(separator: " ")
    }

    /// A short, printable rendering of untrusted bytes for error messages.
    static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        PrintableText.quoted(bytes: bytes.prefix(40)) + (bytes.count > 40 ? "..." : "")
    }
}

extension String {
    /// The string without `suffix` at its end (unchanged when it does not end with it).
    func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
