// Errors from the host store that a caller shows to a user (the executable maps `kind`
// to an exit code; docs/command-line.md, "Exit codes").

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
        /// An SQLite statement failed; `message` is SQLite's own (exit 1). Callers add
        /// what was being done.
        case database
        /// A key with that name exists (exit 5).
        case keyNameTaken
        /// The same key is stored under another name (exit 5).
        case keyAlreadyStored
        /// Hosts still use the key (exit 5).
        case keyInUse
        /// An input to import that cannot be used: not JSON, not a Tailscale export, ... (exit 1).
        case unusableInput
    }

    public let kind: Kind
    /// What is wrong, one line, in a user's words.
    public let message: String
    /// What to do about it, or nil.
    public let hint: String?

    /// SQLite's result code for `.database`, else 0.
    let sqliteCode: Int32

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.init(kind, message, hint: hint, sqliteCode: 0)
    }

    init(_ kind: Kind, _ message: String, hint: String? = nil, sqliteCode: Int32) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.sqliteCode = sqliteCode
    }

    public var description: String { message }

    static func rejected(_ message: String, hint: String? = nil) -> HostStoreError { HostStoreError(.rejected, message, hint: hint) }
    static func notFound(_ message: String, hint: String? = nil) -> HostStoreError { HostStoreError(.notFound, message, hint: hint) }
}
