// How long one vault call may take. A keyring may show a dialog first (unlock the database,
// allow access): someone at a terminal can answer it, so there hostbook waits 60 s and says
// what it is waiting for; without a terminal (scripts, cron, CI) nobody will, and the 5 s
// deadline stays. HOSTBOOK_VAULT_TIMEOUT (seconds) overrides both.
#if canImport(Glibc)
import Glibc
#endif

public enum VaultTimeout {
    /// The environment variable that sets the deadline, in seconds (e.g. `30` or `2.5`).
    public static let environmentVariable = "HOSTBOOK_VAULT_TIMEOUT"
    public static let nonInteractiveMilliseconds = 5_000
    public static let interactiveMilliseconds = 60_000

    /// True when someone can see a notice and answer a dialog: stderr is a terminal.
    public static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    /// The deadline for this process, in milliseconds.
    public static var standardMilliseconds: Int {
        if let text = getenv(environmentVariable).map({ String(cString: $0) }),
           let seconds = Double(text), seconds > 0, seconds <= 3600 {
            return Int(seconds * 1000)
        }
        return isInteractive ? interactiveMilliseconds : nonInteractiveMilliseconds
    }
}
