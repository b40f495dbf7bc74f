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

    /// The fix that names a hostbook command, as data: the executable words it (its
    /// HostStoreErrorPresentation), so no command line is written in this library.
    public enum Remedy: Sendable, Equatable {
        /// See the hosts there are (`hostbook list`), after "Did you mean" `suggestion`.
        case listHosts(suggestion: String?)
        /// See the snippets there are (`hostbook snippets list`).
        case listSnippets
        /// Choose another name, or change the host `existing` (`hostbook edit`).
        case renameOrEditHost(existing: String)
        /// Choose another name, or change the snippet `existing` (`hostbook snippets edit`).
        case renameOrEditSnippet(existing: String)
        /// Take host `host` off its jump host first (`hostbook edit HOST --no-jump`);
        /// `nothingWritten`: a bundle's plan, which says so and offers `--jump` too.
        case dropJump(host: String, nothingWritten: Bool)
        /// Import the key `name` first (`hostbook keys import`).
        case importKey(name: String)
        /// Add the jump host `name` first (`hostbook add`).
        case addJumpHost(name: String)
        /// Shorten a jump chain (`hostbook edit NAME --jump` or `--no-jump`).
        case shortenJumpChain
        /// See the stored key `name` (`hostbook keys show`).
        case showKey(name: String)
        /// Point `hosts` at another key first (`hostbook edit HOST --no-key`).
        case repointHosts([String])
        /// A database file that cannot be used: `hostbook doctor`, or a backup of `path`.
        case checkDatabase(path: String)
    }

    public let kind: Kind
    /// What is wrong, one line, in a user's words.
    public let message: String
    /// What to do about it when it names no hostbook command, or nil (see `remedy`).
    public let advice: String?
    /// What to do about it when that is a hostbook command, or nil.
    public let remedy: Remedy?

    /// SQLite's result code for `.database`, else 0.
    let sqliteCode: Int32

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.init(kind, message, hint: hint, sqliteCode: 0)
    }

    public init(_ kind: Kind, _ message: String, remedy: Remedy) {
        self.init(kind, message, hint: nil, remedy: remedy, sqliteCode: 0)
    }

    init(_ kind: Kind, _ message: String, hint: String? = nil, remedy: Remedy? = nil, sqliteCode: Int32) {
        self.kind = kind
        self.message = message
        self.advice = hint
        self.remedy = remedy
        self.sqliteCode = sqliteCode
    }

    public var description: String { message }

    static func rejected(_ message: String, hint: String? = nil) -> HostStoreError { HostStoreError(.rejected, message, hint: hint) }
    static func notFound(_ message: String, hint: String? = nil) -> HostStoreError { HostStoreError(.notFound, message, hint: hint) }
    static func rejected(_ message: String, remedy: Remedy) -> HostStoreError { HostStoreError(.rejected, message, remedy: remedy) }
    static func notFound(_ message: String, remedy: Remedy) -> HostStoreError { HostStoreError(.notFound, message, remedy: remedy) }
}
