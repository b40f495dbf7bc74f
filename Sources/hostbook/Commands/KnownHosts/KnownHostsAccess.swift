// What the known-hosts commands share: opening the store, reading HOST, --port and --key,
// and the words for hosts and keys in messages.
import CommandLineKit
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

    /// Presents a database failure as every known-hosts command does (exit 1).
    static func mappingErrors<R>(_ body: () throws -> R) throws -> R {
        try HostStoreErrorPresentation.mapping(body)
    }

    /// HOST and --port as a lookup name (KnownHostName.lookup): a plain host name or address,
    /// or `[host]:port` as ssh writes it (exit 2 otherwise, with the reason).
    static func lookup(_ inv: Invocation, host: String) throws -> HostLookupName {
        try KnownHostName.lookup(host, port: inv.args.int(.port, in: TCPPort.range))
    }

    /// HOST as every known-hosts command that takes one reads it (`scan`, `check`, `list`,
    /// `history`, `approve`, `rotation`): the name of a saved host stands for its hostname and
    /// port (`--port` still wins), and a note on stderr says which host and port were used;
    /// anything else is a host name or address, or `[host]:port`, with `--port`
    /// (KnownHostName.resolve).
    static func resolve(_ inv: Invocation, host given: String) throws -> HostLookupName {
        try resolving(inv, host: given).lookup
    }

    static func resolving(_ inv: Invocation, host given: String) throws -> KnownHostName.Resolved {
        let explicitPort = try inv.args.int(.port, in: TCPPort.range)
        let resolved = try mappingErrors { try KnownHostName.resolve(given, port: explicitPort, in: inv.workspace) }
        if let saved = resolved.savedHost {
            inv.note("hostbook: '\(PrintableText.quoted(saved))' is a saved host: using \(describeWithPort(resolved.lookup))")
        }
        return resolved
    }

    /// `'host' port N`, the port always said (for the saved-host note).
    static func describeWithPort(_ lookup: HostLookupName) -> String {
        "'\(PrintableText.quoted(lookup.host))' port \(lookup.port)"
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
