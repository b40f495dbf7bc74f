// Vault failures reach the user as one line and a hint, with exit code 1 (docs/command-line.md,
// "Exit codes").
import Vault

extension VaultError: UserFacingError {
    var exitCode: ExitCode { .failure }
}
