// How key-format and key-store errors reach the user: one line and the documented exit
// code (DESIGN.md "Exit codes"). Vault and database errors met by the keys commands are
// wrapped here too, with what was being done when they happened.
import KeyFormats
import HostStore
import Vault

extension KeyFormatError: UserFacingError {
    var exitCode: ExitCode {
        switch kind {
        case .invalid, .unsupported: .failure
        case .passphraseRequired: .inputNeeded
        case .wrongPassphrase: .wrongPassphrase
        }
    }

    var message: String { reason }

    var hint: String? {
        switch kind {
        case .passphraseRequired: "Use --passphrase-stdin or --passphrase-file, or run on a terminal to be asked."
        case .wrongPassphrase: "Check the passphrase and try again; nothing was stored."
        case .invalid, .unsupported: nil
        }
    }
}

extension KeyStoreError: UserFacingError {
    var exitCode: ExitCode { .rejected }

    var message: String {
        switch self {
        case .duplicateName(let name): "a key named '\(name)' already exists"
        case .duplicateKey(let existing, let fingerprint): "this key is already stored as '\(existing)' (\(fingerprint))"
        case .inUse(let name, let hosts): "key '\(name)' is used by \(hosts.count == 1 ? "host" : "hosts") \(hosts.map { "'\($0)'" }.joined(separator: ", "))"
        }
    }

    var hint: String? {
        switch self {
        case .duplicateName: "Choose another name with --name, or remove the existing key first."
        case .duplicateKey(let existing, _): "Use 'hostbook keys show \(existing)' to see it."
        case .inUse(_, let hosts) where hosts.count == 1:
            "Point that host at another key first ('hostbook edit \(hosts[0]) --no-key')."
        case .inUse: "Point those hosts at another key first ('hostbook edit HOST --no-key')."
        }
    }
}

enum KeysFailure {
    /// A vault error while `doing` something, as one line plus the vault's own hint.
    static func vault(_ error: Error, _ doing: String) -> Error {
        if let e = error as? VaultError { return CLIError.failure("\(doing): \(e.message)", hint: e.hint) }
        return error
    }

    /// A database error while `doing` something.
    static func database(_ error: Error, _ doing: String) -> Error {
        if let e = error as? DatabaseError { return CLIError.failure("\(doing): \(e.message)") }
        return error
    }

    static func notFound(_ name: String) -> CLIError {
        CLIError.notFound("no key named '\(name)'", hint: "Run 'hostbook keys list' to see the keys.")
    }
}
