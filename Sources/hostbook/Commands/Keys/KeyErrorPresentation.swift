// How key-format errors reach the user (key-store refusals are HostStoreErrors,
// presented by HostStoreErrorPresentation; the workflows' are KeysRefusal+Presentation): one
// line and the documented exit code (docs/command-line.md, "Exit codes").
import Workflows
import KeyFormats

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
