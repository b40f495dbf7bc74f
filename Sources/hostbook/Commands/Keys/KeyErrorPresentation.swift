// How key-format errors reach the user (key-store refusals are HostStoreErrors,
// presented by HostStoreErrorPresentation): one line and the documented exit
// code (docs/command-line.md, "Exit codes"). Vault and database errors met by the keys commands are
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

enum KeysFailure {
    /// A vault error while `doing` something, as one line plus the vault's own hint.
    static func vault(_ error: Error, _ doing: String) -> Error {
        if let e = error as? VaultError { return CLIError.failure("\(doing): \(e.message)", hint: e.hint) }
        return error
    }

    /// A database error while `doing` something.
    static func database(_ error: Error, _ doing: String) -> Error {
        if let e = error as? HostStoreError, e.kind == .database { return HostStoreErrorPresentation.cliError(e, doing: doing) }
        return error
    }

    static func notFound(_ name: String) -> CLIError {
        CLIError.notFound("no key named '\(name)'", hint: "Run 'hostbook keys list' to see the keys.")
    }
}
