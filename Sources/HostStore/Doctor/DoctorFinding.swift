// One thing `hostbook doctor` found wrong, and how to fix it.

public struct DoctorFinding: Sendable, Equatable {
    public enum Severity: String, Sendable {
        /// Data is at risk or a command will fail.
        case error
        /// Works, but should be fixed (e.g. a file others can read).
        case warning
    }

    /// Which check found it, e.g. "database.integrity", "vault.orphan".
    public let check: String
    public let severity: Severity
    /// What is wrong, one line; never a secret.
    public let message: String
    /// What to do about it, one line.
    public let fix: String

    public init(check: String, severity: Severity, message: String, fix: String) {
        self.check = check
        self.severity = severity
        self.message = message
        self.fix = fix
    }
}
