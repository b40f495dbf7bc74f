// Errors from the host store that a caller shows to a user (the executable maps `kind`
// to an exit code; DESIGN.md, "Exit codes").

public struct HostStoreError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No host, snippet or key by that name (exit 4).
        case notFound
        /// Input failed validation: bad name, duplicate, unknown jump host, ... (exit 5).
        case rejected
        /// The database was written by a newer hostbook (exit 1, nothing touched).
        case newerSchema
        /// Anything else: I/O, a file that is not a database, a busy database (exit 1).
        case failed
        /// A trust decision made before a write no longer holds inside the write's
        /// transaction: another process changed the host's entries meanwhile (exit 11).
        case changedMeanwhile
    }

    public let kind: Kind
    /// What is wrong, one line, in a user's words.
    public let message: String
    /// What to do about it, or nil.
    public let hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message }

    static func rejected(_ message: String, hint: String? = nil) -> HostStoreError { HostStoreError(.rejected, message, hint: hint) }
    static func notFound(_ message: String, hint: String? = nil) -> HostStoreError { HostStoreError(.notFound, message, hint: hint) }
}
