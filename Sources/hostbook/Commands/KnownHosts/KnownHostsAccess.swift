// What the known-hosts commands share: opening the store, reading --port and --key,
// turning library errors into one-line messages, and the JSON shape of an entry.
import HostStore
import KeyFormats

enum KnownHostsAccess {
    static let portOption = OptionSpec.value("port", "N", "SSH port (default 22)")
    static let keyOption = OptionSpec.value("key", "\"TYPE BASE64\"", "The host key: a .pub line, or an ssh-keyscan line (HOST TYPE BASE64)")

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

    /// HOST and --port as a lookup name. `[host]:port`, as ssh writes it, is accepted too.
    static func lookup(_ inv: Invocation, host: String) throws -> HostLookupName {
        if host.hasPrefix("["), let bracketed = HostLookupName.parseBracketed(host) {
            if let p = try inv.args.int("port", in: 1...65535), p != bracketed.port {
                throw CLIError.usage("'\(host)' names port \(bracketed.port) but --port says \(p)")
            }
            return bracketed
        }
        try validateHost(host)
        return HostLookupName(host: host, port: try port(inv))
    }

    /// A host name must be one token ssh could look up: no whitespace, commas, control
    /// characters, pattern characters or brackets (they would change what a known_hosts
    /// entry for it means).
    static func validateHost(_ host: String) throws {
        guard !host.isEmpty else { throw CLIError.usage("the host name is empty") }
        if host.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f || $0 == "," }) {
            throw CLIError.usage("'\(host)' is not a host name: it contains a space, comma or control character")
        }
        if host.unicodeScalars.contains(where: { "*?![]|".unicodeScalars.contains($0) }) || host.hasPrefix("@") || host.hasPrefix("#") {
            throw CLIError.usage("'\(host)' is not a host name: patterns (*, ?, !), brackets and | are not allowed",
                                 hint: "Give the port with --port; patterns can be imported from a known_hosts file.")
        }
    }

    /// Parses `--key` as pasted (a `.pub` line, or an ssh-keyscan line for `lookup`; exit 2
    /// when missing, malformed or for another host). PastedHostKey has the forms.
    static func presentedKey(_ inv: Invocation, for lookup: HostLookupName) throws -> PresentedHostKey {
        guard let text = inv.args.value("key") else {
            throw CLIError.usage("--key is required", hint: PastedHostKey.hint)
        }
        return try PastedHostKey.parse(text, for: lookup)
    }

    /// `host (port N)` for messages; port 22 is left out.
    static func describe(_ lookup: HostLookupName) -> String {
        lookup.port == HostLookupName.defaultPort ? "'\(lookup.host)'" : "'\(lookup.host)' (port \(lookup.port))"
    }

    static func describe(_ key: PublicKey) -> String { "\(key.shortTypeName) key \(key.sha256Fingerprint)" }

    static func entryJSON(_ row: KnownHostRow) -> JSONValue { KnownHostsJSON.entry(row) }

    /// When and how an entry was trusted, for the changed-key warning.
    static func provenance(_ row: KnownHostRow) -> String {
        if let at = row.approvedAt { return "approved \(at) (\(row.source))" }
        return "added \(row.firstSeen) (\(row.source))"
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
