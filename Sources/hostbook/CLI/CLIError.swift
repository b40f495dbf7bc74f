// Every failure that reaches the user: one line `hostbook: <what went wrong>`, then where
// useful one line saying what to do, and the documented exit code.

/// Errors from any layer that know how to present themselves to a user. A library's error
/// type conforms to it beside the code that words it, in a file named for the type:
/// `<Type>+Presentation.swift` (SessionRefusal, SSHSessionRefusal, KeysRefusal,
/// KnownHostsRefusal, InstalledConfigRefusal, AgentRefusal, VaultError, ...) or
/// `<Type>Presentation.swift` (HostStoreError, KeyFormatError).
protocol UserFacingError: Error {
    var exitCode: ExitCode { get }
    /// What went wrong, one line, without the `hostbook: ` prefix.
    var message: String { get }
    /// What to do about it, one line, or nil.
    var hint: String? { get }
    /// Lines another program said, printed between the message and the hint, each escaped
    /// (git's stderr: BundleGitFailure); none by default.
    var details: [String] { get }
}

extension UserFacingError {
    var details: [String] { [] }
}

struct CLIError: UserFacingError {
    let exitCode: ExitCode
    let message: String
    let hint: String?

    init(_ code: ExitCode, _ message: String, hint: String? = nil) {
        self.exitCode = code
        self.message = message
        self.hint = hint
    }

    static func usage(_ message: String, hint: String? = nil) -> CLIError { CLIError(.usage, message, hint: hint) }
    static func notFound(_ message: String, hint: String? = nil) -> CLIError { CLIError(.notFound, message, hint: hint) }
    static func rejected(_ message: String, hint: String? = nil) -> CLIError { CLIError(.rejected, message, hint: hint) }
    static func failure(_ message: String, hint: String? = nil) -> CLIError { CLIError(.failure, message, hint: hint) }
    static func inputNeeded(_ message: String, hint: String? = nil) -> CLIError { CLIError(.inputNeeded, message, hint: hint) }
}

/// Thrown by a command that has already printed its result but must exit non-zero
/// (e.g. `known-hosts check` printing "changed" and exiting 11).
struct ExitStatus: Error {
    let code: ExitCode
}

/// Thrown by a command that changes hosts or keys and failed after some of its changes were
/// written (`bundle update` of several bundles, one refused): what was written still reaches
/// the installed ssh configuration and the allowed signers file (Hostbook.afterChanges), then
/// `underlying` is reported as the command's error.
struct FailedAfterChanges: Error {
    let underlying: any Error
}
