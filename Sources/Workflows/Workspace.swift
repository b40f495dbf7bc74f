// What one hostbook command works in: its environment, the database's path and the database
// itself, opened at most once for the command (for reading, or for writing when the command
// writes) and handed to every library the command calls. No library opens the database from a
// path: a workflow asks its workspace. A standing process (the agent) keeps one workspace and
// reads fresh per request through the same handle.
import Credentials
import HostStore
import System

public final class Workspace {
    /// The process environment the command runs with (never the test runner's by accident:
    /// an in-process test passes its own).
    public let environment: [String: String]
    /// The database path: --db, else $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db,
    /// else ~/.local/share/hostbook/hostbook.db.
    public let databasePath: String
    private var opened: HostDatabase?

    /// `databasePath` nil: the path the environment names (`Workspace.databasePath(environment:)`).
    public init(environment: [String: String], databasePath: String? = nil) {
        self.environment = environment
        self.databasePath = databasePath ?? Self.databasePath(environment: environment)
    }

    public static func databasePath(environment: [String: String]) -> String {
        if let p = environment["HOSTBOOK_DB"], !p.isEmpty { return p }
        if let x = environment["XDG_DATA_HOME"], x.hasPrefix("/") { return x + "/hostbook/hostbook.db" }
        return homeDirectory(environment: environment) + "/.local/share/hostbook/hostbook.db"
    }

    public var homeDirectory: String { Self.homeDirectory(environment: environment) }

    public static func homeDirectory(environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/root"
    }

    /// The database for a command that writes: created and migrated when there is none. Opened
    /// once; a read-only handle opened earlier in the command is replaced by a writable one.
    public func database() throws -> HostDatabase {
        if let opened, !opened.isReadOnly { return opened }
        let database = try HostDatabase.open(path: databasePath)
        opened = database
        return database
    }

    /// The database for a command that only reads: nil when there is none yet (nothing is
    /// created). Opened once; a writable handle opened earlier serves as well.
    public func existingDatabase() throws -> HostDatabase? {
        if let opened { return opened }
        let database = try HostDatabase.openForReading(path: databasePath)
        opened = database
        return database
    }

    /// The database of a command that may be a dry run (the imports): for a dry run the one
    /// there is, read-only, or an empty one in memory, so that nothing is created on disk;
    /// otherwise `database()`.
    public func database(dryRun: Bool) throws -> HostDatabase {
        dryRun ? try existingDatabase() ?? HostDatabase.inMemory() : try database()
    }

    /// The database as doctor inspects it: read-only at any schema this program knows, never
    /// created or migrated (HostDatabase.openForInspection); nil when there is none. Opened
    /// once, as the others are.
    public func inspectedDatabase() throws -> HostDatabase? {
        if let opened { return opened }
        let database = try HostDatabase.openForInspection(path: databasePath)
        opened = database
        return database
    }

    /// A second writable connection to the same database, for a writer that must not hold
    /// the command's one (the standing agent's log, waiting for the write lock).
    public func separateDatabase() throws -> HostDatabase { try HostDatabase.open(path: databasePath) }

    /// Keys and passwords across the database and the vault, over `database()`.
    public func credentials() throws -> CredentialStore {
        CredentialStore(database: try database())
    }

    /// The same for a command that only reads: nil when there is no database yet.
    public func existingCredentials() throws -> CredentialStore? {
        try existingDatabase().map { CredentialStore(database: $0) }
    }
}
