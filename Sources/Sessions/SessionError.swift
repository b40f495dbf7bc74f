// The worded error of the Sessions library: what a session plan or an ssh configuration
// refuses, worded for the user (the executable maps `kind` to an exit code;
// docs/command-line.md, "Exit codes"). Refusals moved to data are SessionRefusal. HostStore's own errors pass through unchanged.
public struct SessionError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No host, snippet, jump host or key by that name (exit 4).
        case notFound
        /// A value that fails its rule, one that is needed and missing, or a configuration
        /// past the load's bounds (exit 5).
        case rejected
        /// Anything else: a jump chain that loops or is too long, a value ssh_config cannot
        /// express, a configuration file that cannot be read (exit 1).
        case failed
    }

    public let kind: Kind
    /// What is wrong, one line. Outside text in it is raw: the executable escapes the line
    /// when it prints it (Hostbook.report).
    public let message: String
    /// What to do about it, or nil.
    public let hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message }

    static func notFound(_ message: String, hint: String? = nil) -> SessionError { SessionError(.notFound, message, hint: hint) }
    static func rejected(_ message: String, hint: String? = nil) -> SessionError { SessionError(.rejected, message, hint: hint) }
    static func failed(_ message: String, hint: String? = nil) -> SessionError { SessionError(.failed, message, hint: hint) }
}
