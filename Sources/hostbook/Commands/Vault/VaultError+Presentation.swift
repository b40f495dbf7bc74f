// Vault failures reach the user as one line and a hint, with exit code 1, a wrong passphrase for the headless keyring with 6 (docs/command-line.md,
// "Exit codes").
import Vault

extension VaultError: UserFacingError {
    var exitCode: ExitCode { kind == .wrongPassphrase ? .wrongPassphrase : .failure }
}
