// How a key's certificate is shown: the `certificate` object of the key JSON
// (docs/json.md, `key-certificate`), its lines in `keys show`, its cell in `keys list`, the
// line `keys cert add` and `keys import` print, and the warnings they give. Its text (key
// id, principals, options) comes from the CA: escaped where it is printed.
import CommandLineKit
import KeyFormats
import Workflows
import Sessions

enum KeyCertificatePresentation {
    static func role(_ c: Certificate) -> String { c.role == .user ? "user" : "host" }

    static func json(_ c: Certificate, now: UInt64 = AgentCertificateOffer.now()) -> JSONValue {
        func options(_ list: [(name: String, data: [UInt8])]) -> JSONValue {
            .array(list.map { option in
                .object([("name", .string(option.name)),
                         ("value", option.data.isEmpty ? .null : .optional(Certificate.stringValue(option.data) ?? Base64.encode(option.data)))])
            })
        }
        return .object([
            ("type", .string(role(c))),
            ("certificate_type", .string(c.type)),
            ("key_id", .string(c.keyID)),
            ("serial", .unsigned(c.serial)),
            ("principals", .strings(c.principals)),
            ("valid_after", .optional(c.validFromText)),
            ("valid_before", .optional(c.validToText)),
            ("critical_options", options(c.criticalOptions)),
            ("extensions", options(c.extensions)),
            ("ca_type", .string(c.signatureKey.type)),
            ("ca_fingerprint", .string(c.caFingerprint)),
            ("valid_now", .bool(c.isValid(at: now))),
        ])
    }

    /// `valid now`, `expired` or `not valid yet`.
    static func state(_ c: Certificate, now: UInt64) -> String {
        c.isValid(at: now) ? "valid now" : now < c.validAfter ? "not valid yet" : "expired"
    }

    /// One option as ssh-keygen -L lists it: the name, and its string value when it has one.
    private static func optionText(_ option: (name: String, data: [UInt8])) -> String {
        if option.data.isEmpty { return option.name }
        return option.name + " " + (Certificate.stringValue(option.data) ?? "(\(option.data.count) bytes)")
    }

    /// The lines of `keys show` (after the key's own fields).
    static func lines(_ c: Certificate, now: UInt64 = AgentCertificateOffer.now()) -> [TerminalText] {
        [
            "certificate:  \(role(c)) certificate, key id \"\(c.keyID)\", serial \(c.serial)",
            "valid:        \(c.validityText) (\(state(c, now: now)))",
            "principals:   \(c.principals.isEmpty ? "(any)" : c.principals.joined(separator: ", "))",
            "critical:     \(c.criticalOptions.isEmpty ? "(none)" : c.criticalOptions.map(optionText).joined(separator: ", "))",
            "extensions:   \(c.extensions.isEmpty ? "(none)" : c.extensions.map(optionText).joined(separator: ", "))",
            "signing CA:   \(c.caFingerprint) (\(c.signatureKey.shortTypeName))",
        ]
    }

    /// The `keys list` cell: role, serial and state.
    static func cell(_ c: Certificate, now: UInt64 = AgentCertificateOffer.now()) -> String {
        "\(role(c)) #\(c.serial), \(c.validToText.map { "until \($0)" } ?? "no end") (\(state(c, now: now)))"
    }

    /// What `keys cert add` and `keys import` print about it.
    static func summary(_ c: Certificate) -> TerminalText {
        "\(role(c)) certificate, key id \"\(c.keyID)\", serial \(c.serial), principals \(c.principals.isEmpty ? "(any)" : c.principals.joined(separator: ", ")), valid \(c.validityText), CA \(c.caFingerprint)"
    }

    /// Warnings for a certificate the agents will not offer now.
    static func warnings(_ c: Certificate, _ inv: Invocation, now: UInt64 = AgentCertificateOffer.now()) {
        if c.role == .host {
            inv.warn("this is a host certificate: the agents offer only user certificates")
        } else if !c.isValid(at: now) {
            inv.warn("the certificate is \(state(c, now: now)) (valid \(c.validityText)): the agents do not offer it outside that window")
        }
    }
}
