// Vault failures reach the user as one line (the vault's text and a cause worded here) and
// a hint (a remedy worded here), with exit code 1, a wrong passphrase for the headless
// keyring with 6 (docs/command-line.md, "Exit codes").
import Vault

extension VaultError: UserFacingError {
    var exitCode: ExitCode { kind == .wrongPassphrase ? .wrongPassphrase : .failure }

    /// What is wrong: the vault's text, then its cause in hostbook's words.
    var message: String {
        switch cause {
        case .stoppedByVaultLock: text + " (not running: 'hostbook vault lock' stopped it)"
        case nil: text
        }
    }

    /// What to do: the remedy in hostbook's words, else the vault's own advice.
    var hint: String? {
        guard let remedy else { return advice }
        switch remedy {
        case .desktopOrOwnKeyring:
            return "Run hostbook inside a desktop session, or start hostbook's own keyring with "
                + "'eval \"$(hostbook vault unlock)\"' (see docs/vault.md, \"hostbook over SSH\")."
        case .unlockOwnKeyring:
            return "Run 'eval \"$(hostbook vault unlock)\"' to unlock it with your login keyring's passphrase."
        case .typeLoginPassphrase:
            return "Type the passphrase the login keyring was created with (by the first 'hostbook vault unlock'); nothing was left running."
        case .lockThenUnlock:
            return "Run 'hostbook vault lock', then 'hostbook vault unlock' again."
        case .removeThenUnlock:
            return "Remove it, then run 'hostbook vault unlock' again."
        case .installThenUnlock(let packages):
            return "Install it (apt-get install \(packages)), then run 'hostbook vault unlock' again."
        case .unsetBusThenUnlock:
            return "Unset DBUS_SESSION_BUS_ADDRESS and run 'hostbook vault unlock' again."
        case .unlockAgain:
            return "Run 'hostbook vault unlock' again."
        }
    }
}
