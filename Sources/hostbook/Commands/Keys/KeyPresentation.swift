// How a stored key is shown: the JSON object of `keys show --json` / `keys list --json`
// (the `key` object of docs/json.md) and the text of `keys show`.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KeyPresentation {
    /// Where a key was read from, as messages name it: `'PATH'` or `standard input`.
    static func shown(_ source: KeysRefusal.Source) -> String {
        switch source {
        case .file(let path): "'\(path)'"
        case .standardInput: "standard input"
        }
    }

    static func json(_ key: StoredKey, randomart: Bool = false, use: KeySigningUse = .none) throws -> JSONValue {
        let pub = try key.publicKey
        let fields: [(String, JSONValue)] = [
            ("name", .string(key.name)),
            ("type", .string(key.algorithm)),
            ("bits", .int(key.bits)),
            ("fingerprint", .string(key.fingerprint)),
            ("fingerprint_md5", .string(pub.md5Fingerprint)),
            ("comment", key.comment.isEmpty ? .null : .string(key.comment)),
            ("public_key", .string(pub.line(comment: key.comment))),
            ("format", .string(key.format)),
            ("security_key", .bool(pub.needsSecurityKey)),
            ("randomart", randomart ? .string(pub.randomart) : .null),
            ("namespaces", .array(use.namespaces.map { .string($0) })),
            ("git_email", use.gitEmail.map { .string($0) } ?? .null),
            ("created_at", .string(key.createdAt)),
            ("confirm", .bool(key.confirm)),
            ("grant_seconds", key.grantSeconds > 0 ? .int(key.grantSeconds) : .null),
            ("certificate", key.certificate.map { KeyCertificatePresentation.json($0) } ?? .null),
            ("location", .string(key.location.rawValue)),
            ("needs_presence", key.needsPresence.map { .bool($0) } ?? .null),
            ("needs_pin", key.needsPIN.map { .bool($0) } ?? .null),
        ]
        return .object(fields)
    }

    /// The name, comment and format come from the key file or the user: escaped by the
    /// interpolation, so a comment cannot draw a line of its own.
    static func text(_ key: StoredKey, randomart: Bool, use: KeySigningUse = .none) throws -> TerminalText {
        let pub = try key.publicKey
        var lines: [TerminalText] = [
            "name:         \(key.name)",
            "type:         \(key.algorithm) (\(pub.shortTypeName) \(key.bits))",
            "fingerprint:  \(key.fingerprint)",
            "md5:          \(pub.md5Fingerprint)",
            "comment:      \(key.comment)",
            "format:       \(key.format)",
            "security key: \(pub.needsSecurityKey ? "yes (needs the FIDO authenticator to sign)" : "no")",
            "location:     \(locationText(key))",
            "created:      \(key.createdAt)",
            "confirm:      \(key.confirm ? "yes (every signature asks)" : "no")",
            "grant:        \(key.grantSeconds > 0 ? "\(KeyEditOptions.duration(key.grantSeconds)) (an approval covers the same key, destination, program and namespace)" : "none")",
            use.namespaces.isEmpty ? "namespaces:   any (not restricted)"
                : "namespaces:   \(use.namespaces.joined(separator: ", ")) (SSHSIG signatures only; not offered to servers)",
        ]
        if let email = use.gitEmail { lines.append("git email:    \(email)") }
        if let certificate = key.certificate { lines += KeyCertificatePresentation.lines(certificate) }
        // The long line last, so the short fields above it line up on any terminal width.
        lines.append("public key:   \(pub.line(comment: key.comment))")
        if randomart { lines.append(.raw(pub.randomart)) }   // drawn by hostbook, several lines
        return lines.joined(separator: "\n")
    }

    /// Where the private half lives and what signing asks of the user: `vault`,
    /// `security-key (touch, PIN)`, `upstream (the other agent decides)`.
    static func locationText(_ key: StoredKey) -> String {
        var asks: [String] = []
        switch (key.location, key.needsPresence) {
        case (_, true?): asks.append("touch")
        case (.securityKey, false?): asks.append("no touch")
        case (.securityKey, nil): asks.append("touch unless enrolled with no-touch-required")
        default: break
        }
        if key.needsPIN == true { asks.append("PIN") }
        if key.location == .upstream { asks.append("the other agent decides what it asks") }
        return asks.isEmpty ? key.location.rawValue : "\(key.location.rawValue) (\(asks.joined(separator: ", ")))"
    }

    /// The LOCATION cell of `keys list`: the location, and what it is known to ask.
    static func shortLocation(_ key: StoredKey) -> String {
        let asks = [key.needsPresence == true ? "touch" : nil, key.needsPIN == true ? "PIN" : nil].compactMap { $0 }
        return asks.isEmpty ? key.location.rawValue : "\(key.location.rawValue) (\(asks.joined(separator: ", ")))"
    }

    /// `256 SHA256:... comment (ED25519)`, as `ssh-keygen -l` prints it.
    static func summary(_ key: StoredKey) throws -> String {
        let pub = try key.publicKey
        return "\(key.bits) \(key.fingerprint) \(key.comment.isEmpty ? "no comment" : key.comment) (\(pub.shortTypeName))"
    }
}

extension StoredKey {
    /// Whether signing needs a touch of a security key: from its flags; false for a vault
    /// key; nil when not known (an sk key stored without its flags, another agent's key).
    var needsPresence: Bool? {
        switch location {
        case .vault: false
        case .securityKey: skFlags?.needsPresence
        case .token: false
        case .upstream: nil
        }
    }

    /// Whether signing needs a PIN: an sk key enrolled verify-required; a token's (asked once
    /// per agent session); false for a vault key; nil when not known.
    var needsPIN: Bool? {
        switch location {
        case .vault: false
        case .securityKey: skFlags?.needsPIN
        case .token: true
        case .upstream: nil
        }
    }
}
