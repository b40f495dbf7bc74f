// What the known-hosts commands share: opening the store, reading --port and --key,
// turning library errors into one-line messages, and the JSON shape of an entry.
import HostStore
import KeyFormats
import System
import Workflows

enum KnownHostsAccess {
    static let portOption = OptionSpec.value(.port, "N", "SSH port (default 22)")
    static let keyOption = OptionSpec.value(.key, "\"TYPE BASE64\"", "The host key: a .pub line, or an ssh-keyscan line (HOST TYPE BASE64)")
    static let keyHint = "Give the host key as --key \"TYPE BASE64\", e.g. from 'ssh-keyscan HOST'."

    /// Whether this invocation may ask the user, or why not (for the workflows).
    static func asking(_ inv: Invocation) -> Asking {
        inv.canPrompt ? .possible : inv.globals.noInput ? .refused : .noTerminal
    }

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
        try HostStoreErrorPresentation.mapping(body)
    }

    static func port(_ inv: Invocation) throws -> Int {
        try inv.args.int(.port, in: TCPPort.range) ?? HostLookupName.defaultPort
    }

    /// HOST and --port as a lookup name, through the known-hosts name validator (HostNameRule): a
    /// plain host name or address, or `[host]:port` as ssh writes it. Patterns, lists,
    /// negation, whitespace, control characters and NUL are refused (exit 2, with the reason).
    static func lookup(_ inv: Invocation, host: String) throws -> HostLookupName {
        let port = try inv.args.int(.port, in: TCPPort.range)
        do {
            return try HostNameRule.lookup(host, port: port)
        } catch let e as KeyFormatError {
            throw CLIError.usage("'\(PrintableText.quoted(host))' is not a host name: \(e.reason)",
                                 hint: "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.")
        }
    }

    /// HOST as every known-hosts command that takes one reads it (`scan`, `check`, `list`,
    /// `history`, `approve`): the name of a saved host stands for its hostname and port
    /// (`--port` still wins), and a note on stderr says which host and port were used;
    /// anything else is a host name or address, or `[host]:port`, with `--port` (`lookup`).
    static func resolve(_ inv: Invocation, host given: String) throws -> HostLookupName {
        try resolving(inv, host: given).lookup
    }

    /// HOST as `resolving` read it.
    struct HostArgument {
        let lookup: HostLookupName
        /// HOST named a saved host.
        let saved: Bool
        /// A port was named: `--port`, `[host]:port`, or a saved host's (`list` and `history`
        /// then show that port only; a plain name alone means any port).
        let portNamed: Bool
    }

    /// The one parser of HOST for the known-hosts commands (`resolve`): the lookup name, and
    /// whether it came from a saved host and named a port.
    static func resolving(_ inv: Invocation, host given: String) throws -> HostArgument {
        let explicitPort = try inv.args.int(.port, in: TCPPort.range)
        if !given.hasPrefix("["),
           let saved = try mappingErrors({ try HostStoreAccess.openForReading(inv)?.host(named: given) }) {
            try validateHost(saved.hostname)
            let lookup = try HostNameRule.lookup(saved.hostname, port: explicitPort ?? saved.port)
            inv.note("hostbook: '\(PrintableText.quoted(saved.name))' is a saved host: using \(describeWithPort(lookup))")
            return HostArgument(lookup: lookup, saved: true, portNamed: true)
        }
        return HostArgument(lookup: try self.lookup(inv, host: given), saved: false,
                            portNamed: explicitPort != nil || given.hasPrefix("["))
    }

    /// `'host' port N`, the port always said (for the saved-host note).
    static func describeWithPort(_ lookup: HostLookupName) -> String {
        "'\(PrintableText.quoted(lookup.host))' port \(lookup.port)"
    }

    /// Refuses anything but a plain host name or address (exit 2).
    static func validateHost(_ host: String) throws {
        if let why = HostNameRule.problem(host) {
            throw CLIError.usage("'\(PrintableText.quoted(host))' is not a host name: \(why)",
                                 hint: "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.")
        }
    }

    /// Parses `--key` as pasted (a `.pub` line, or an ssh-keyscan line for `lookup`; exit 2
    /// when missing, malformed or for another host). PastedHostKey has the forms.
    static func presentedKey(_ inv: Invocation, for lookup: HostLookupName) throws -> PresentedHostKey {
        guard let text = inv.args.value(.key) else {
            throw CLIError.usage("--key is required", hint: keyHint)
        }
        return try PastedHostKey.parse(text, for: lookup)
    }

    /// `host (port N)` for messages; port 22 is left out.
    static func describe(_ lookup: HostLookupName) -> String {
        let host = PrintableText.quoted(lookup.host)
        return lookup.port == HostLookupName.defaultPort ? "'\(host)'" : "'\(host)' (port \(lookup.port))"
    }

    static func describe(_ key: PublicKey) -> String { "\(key.shortTypeName) key \(key.sha256Fingerprint)" }

    /// `type fingerprint` of a stored entry, for messages (the type comes from a key blob:
    /// escaped).
    static func describeStored(_ row: KnownHostRow) -> String { "\(PrintableText.quoted(row.keyType)) \(row.fingerprint)" }

    static func entryJSON(_ row: KnownHostRow) -> JSONValue { KnownHostsJSON.entry(row) }

    /// When and how an entry was trusted, for the changed-key warning.
    static func provenance(_ row: KnownHostRow) -> String {
        if let at = row.approvedAt { return "approved \(PrintableText.quoted(at)) (\(PrintableText.quoted(row.source)))" }
        return "added \(PrintableText.quoted(row.firstSeen)) (\(PrintableText.quoted(row.source)))"
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
