// What the known-hosts commands share: opening the store, reading --port and --key,
// turning library errors into one-line messages, and the JSON shape of an entry.
import HostStore
import KeyFormats

enum KnownHostsAccess {
    static let portOption = OptionSpec.value("port", "N", "SSH port (default 22)")
    static let keyOption = OptionSpec.value("key", "\"TYPE BASE64\"", "The host key, as in ssh-keyscan output or a .pub file")

    /// Runs `body` with the store (created when missing), mapping database failures to exit 1.
    static func withStore<R>(_ inv: Invocation, _ body: (KnownHostsStore) throws -> R) throws -> R {
        try mappingErrors { try body(KnownHostsStore(database: HostStoreAccess.openForWriting(inv))) }
    }

    /// For commands that only read: `body` gets nil when there is no database yet, and
    /// nothing is created.
    static func withExistingStore<R>(_ inv: Invocation, _ body: (KnownHostsStore?) throws -> R) throws -> R {
        try mappingErrors { try body(HostStoreAccess.openForReading(inv).map(KnownHostsStore.init)) }
    }

    private static func mappingErrors<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as DatabaseError {
            throw CLIError.failure("database error: \(e.message)", hint: e.isBusy ? "Another hostbook is writing; try again." : nil)
        }
    }

    static func port(_ inv: Invocation) throws -> Int {
        try inv.args.int("port", in: 1...65535) ?? HostLookupName.defaultPort
    }

    /// HOST and --port as a lookup name, through the one name validator (HostNameRule): a
    /// plain host name or address, or `[host]:port` as ssh writes it. Patterns, lists,
    /// negation, whitespace, control characters and NUL are refused (exit 2, with the reason).
    static func lookup(_ inv: Invocation, host: String) throws -> HostLookupName {
        let port = try inv.args.int("port", in: 1...65535)
        do {
            return try HostNameRule.lookup(host, port: port)
        } catch let e as KeyFormatError {
            throw CLIError.usage("'\(PrintableText.quoted(host))' is not a host name: \(e.reason)",
                                 hint: "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.")
        }
    }

    /// Refuses anything but a plain host name or address (exit 2).
    static func validateHost(_ host: String) throws {
        if let why = HostNameRule.problem(host) {
            throw CLIError.usage("'\(PrintableText.quoted(host))' is not a host name: \(why)",
                                 hint: "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.")
        }
    }

    /// Parses `--key "TYPE BASE64"` (exit 2 when missing or malformed).
    static func presentedKey(_ inv: Invocation) throws -> PresentedHostKey {
        guard let text = inv.args.value("key") else {
            throw CLIError.usage("--key is required", hint: "Give the host key as --key \"TYPE BASE64\", e.g. from 'ssh-keyscan HOST'.")
        }
        do {
            return try PresentedHostKey.parse(text)
        } catch let e as KeyFormatError {
            throw CLIError.usage("--key is not a valid host key: \(e.reason)",
                                 hint: "Give the host key as --key \"TYPE BASE64\", e.g. from 'ssh-keyscan HOST'.")
        }
    }

    /// `host (port N)` for messages; port 22 is left out.
    static func describe(_ lookup: HostLookupName) -> String {
        let host = PrintableText.quoted(lookup.host)
        return lookup.port == HostLookupName.defaultPort ? "'\(host)'" : "'\(host)' (port \(lookup.port))"
    }

    static func describe(_ key: PublicKey) -> String { "\(key.shortTypeName) key \(key.sha256Fingerprint)" }

    /// A stored entry's host field, type and comment as printed: always escaped (they come
    /// from imported files and key blobs).
    static func shown(_ text: String) -> String { PrintableText.quoted(text) }

    /// `type fingerprint` of a stored entry, for messages.
    static func describeStored(_ row: KnownHostRow) -> String { "\(shown(row.keyType)) \(row.fingerprint)" }

    static func entryJSON(_ row: KnownHostRow) -> JSONValue {
        .object([
            ("host", .string(row.pattern)),
            ("port", .optional(row.displayPort)),
            ("type", .string(row.keyType)),
            ("fingerprint", .string(row.fingerprint)),
            ("marker", .string(row.marker == .none ? "" : row.marker.rawValue)),
            ("source", .string(row.source)),
            ("first_seen", .string(row.firstSeen)),
            ("approved_at", .optional(row.approvedAt)),
        ])
    }

    static func eventJSON(_ e: HostKeyEvent) -> JSONValue {
        .object([
            ("at", .string(e.at)), ("event", .string(e.event)), ("host", .string(e.host)), ("port", .int(e.port)),
            ("type", .optional(e.keyType)), ("fingerprint", .optional(e.fingerprint)),
            ("old_fingerprint", .optional(e.oldFingerprint)), ("source", .string(e.source)),
        ])
    }

    /// When and how an entry was trusted, for the changed-key warning.
    static func provenance(_ row: KnownHostRow) -> String {
        if let at = row.approvedAt { return "approved \(shown(at)) (\(shown(row.source)))" }
        return "added \(shown(row.firstSeen)) (\(shown(row.source)))"
    }

    static func exitCode(for status: HostKeyStatus) -> ExitCode {
        switch status {
        case .trusted: .ok
        case .unknown: .hostKeyUnknown
        case .changed: .hostKeyChanged
        case .revoked: .hostKeyRevoked
        }
    }
}
