// The hostbook database: path, file modes, pragmas and migrations (docs/hosts.md, "The database").
//
// Two ways in:
// - `open(path:)` for commands that write: creates the folder (0700) and file (0600) when
//   missing, turns on WAL, a busy timeout and foreign keys, and migrates (after a backup).
// - `openForReading(path:)` for commands that only read: nil when there is no database
//   (nothing is created), a read-only connection when the schema is current; a database
//   that exists but cannot be read is an error, never an empty store.
// Both refuse, touching nothing, a database written by a newer hostbook, and one that is
// not to be trusted (a symbolic link, another user's, writable by others: DatabaseTrust).
#if canImport(Glibc)
import Glibc
#endif
import System

public final class HostDatabase {
    let connection: SQLiteConnection
    public let path: String
    /// The random UUID in `meta` that scopes this database's vault items.
    public let databaseID: String
    public let isReadOnly: Bool

    /// How long a writer waits for another process's write lock before giving up.
    public static let busyTimeoutMilliseconds: Int32 = 30_000

    /// Opens or creates the database at `path` and brings its schema up to date.
    public static func open(path: String) throws -> HostDatabase {
        // A folder on the way that cannot be entered is that, not a folder to create.
        _ = try DatabaseTrust.databaseExists(path)
        try DatabaseFiles.prepareFolder(for: path)
        try DatabaseTrust.requireTrusted(path)
        try DatabaseFiles.createPrivateFile(path)
        let conn = try connect(path: path, readOnly: false)
        try conn.guarded {
            try Schema.refuseNewer(conn)
            try Schema.refuseForeign(conn, path: path)
        }
        try conn.guarded {
            try conn.execute("PRAGMA foreign_keys = ON")
            try useWAL(conn)
            // Every commit reaches the disk before it returns: the executable changes the vault
            // only after the database side of an operation is durable (docs/architecture.md,
            // "Layers": the order of a write that touches both stores). In WAL mode this is one
            // fsync of the -wal per commit; hostbook's writes are a few transactions per run.
            try conn.execute("PRAGMA synchronous = FULL")
            try Schema.migrate(conn, path: path)
        }
        return try HostDatabase(connection: conn, path: path, readOnly: false)
    }

    /// Opens an existing database for reading; nil when there is none (nothing is
    /// created). A database that exists but cannot be read, or is not to be trusted
    /// (`DatabaseTrust`), is an error, never an empty result. A database that needs
    /// migrating is opened with `open(path:)` instead (and migrated).
    public static func openForReading(path: String) throws -> HostDatabase? {
        guard try DatabaseTrust.databaseExists(path) else { return nil }
        try DatabaseTrust.requireTrusted(path)
        try DatabaseTrust.requireReadable(path)
        let conn = try connectForReading(path: path)
        let version = try conn.guarded { try Schema.refuseNewer(conn) }
        if version < Schema.currentVersion {
            // An empty file (version 0, no tables) is not a database yet: nothing to read.
            if version == 0, try conn.guarded({ try conn.query("SELECT count(*) FROM sqlite_master").first?.int(0) ?? 0 }) == 0 {
                return nil
            }
            return try open(path: path)
        }
        // Reads of a large listing go through memory-mapped pages instead of read(2) copies.
        try? conn.execute("PRAGMA mmap_size = 268435456")
        return try HostDatabase(connection: conn, path: path, readOnly: true)
    }

    /// Opens an existing database read-only at whatever version it is, migrating nothing
    /// (for `hostbook doctor`, after `DatabaseChecks` found it readable and trusted); nil
    /// when the file does not exist.
    public static func openForInspection(path: String) throws -> HostDatabase? {
        guard try DatabaseTrust.databaseExists(path) else { return nil }
        try DatabaseTrust.requireTrusted(path)
        let conn = try connectForReading(path: path)
        return try HostDatabase(connection: conn, path: path, readOnly: true)
    }

    /// A database in memory with the current schema, for a dry run when there is no
    /// database file yet (so planning creates nothing on disk).
    public static func inMemory() throws -> HostDatabase {
        let connection = try SQLiteConnection(path: ":memory:")
        try Schema.migrate(connection, path: ":memory:")
        return try HostDatabase(connection: connection, path: ":memory:", readOnly: false)
    }

    /// A read-only connection. A WAL database needs its -shm file, which SQLite creates
    /// beside the database even to read; in a folder this user may not write (and with no
    /// -shm there yet) the file is read as it is (`immutable`), which is exact when no -wal
    /// holds changes not yet copied into it, and refused otherwise.
    static func connectForReading(path: String) throws -> SQLiteConnection {
        let folder = ParentFolder.of(path)
        let folderWritable = faccessat(AT_FDCWD, folder, W_OK, AT_EACCESS) == 0
        if folderWritable || DatabaseFiles.exists(path + "-shm") {
            return try connect(path: path, readOnly: true)
        }
        if let size = DatabaseFiles.size(of: path + "-wal"), size > 0 {
            throw HostStoreError(.failed, "cannot read the database '\(path)': its folder is not writable by you, and '\(path)-wal' holds changes SQLite can only read with a -shm file there",
                                 hint: "Run any hostbook command once as a user who can write '\(folder)' (that saves the changes into the database), or make the folder writable.")
        }
        return try connect(path: path, readOnly: true, immutable: true)
    }

    private init(connection: SQLiteConnection, path: String, readOnly: Bool) throws {
        self.connection = connection
        self.path = path
        self.isReadOnly = readOnly
        self.databaseID = try connection.guarded {
            try connection.query("SELECT value FROM meta WHERE key = 'database_id'").first?.text(0) ?? ""
        }
    }

    private static func connect(path: String, readOnly: Bool, immutable: Bool = false) throws -> SQLiteConnection {
        let conn: SQLiteConnection
        do {
            conn = try SQLiteConnection(path: path, create: false, readOnly: readOnly, immutable: immutable)
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreError(.failed, "cannot open the database '\(path)': \(e.message)",
                                 hint: "Check that the file and its folder are readable and writable by you.")
        }
        conn.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        return conn
    }

    /// WAL lets readers work while one process writes. The mode is stored in the file, so
    /// this writes only the first time.
    ///
    /// Switching to WAL needs an exclusive lock, and SQLite does not call the busy handler
    /// for it: a second process opening a brand-new database at the same moment gets
    /// SQLITE_BUSY at once. So this retries, within the same busy timeout.
    private static func useWAL(_ conn: SQLiteConnection) throws {
        var waited: Int32 = 0
        while true {
            do {
                if try conn.query("PRAGMA journal_mode").first?.text(0)?.lowercased() == "wal" { return }
                try conn.query("PRAGMA journal_mode = WAL")
                return
            } catch let e as HostStoreError where e.isBusy && waited < busyTimeoutMilliseconds {
                usleep(5_000)
                waited += 5
            }
        }
    }

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE: the write lock is taken up front
    /// and waited for, so two writers never fail half way with "database is locked").
    public func write<R>(_ body: () throws -> R) throws -> R {
        try connection.guarded { try connection.transaction(immediate: true, body) }
    }

    /// Runs a read in one snapshot.
    public func read<R>(_ body: () throws -> R) throws -> R {
        try connection.guarded(body)
    }
}

extension SQLiteConnection {
    /// Runs `body`, turning SQLite errors into user-facing `HostStoreError`s.
    func guarded<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as HostStoreError where e.kind == .database {
            if e.isBusy {
                throw HostStoreError(.failed, "the database '\(path)' is busy: another hostbook has held it for over \(HostDatabase.busyTimeoutMilliseconds / 1000) seconds",
                                     hint: "Try again when the other hostbook has finished.")
            }
            if e.sqliteCode & 0xff == 26 || e.sqliteCode & 0xff == 11 { // SQLITE_NOTADB, SQLITE_CORRUPT
                throw HostStoreError(.failed, "'\(path)' is not a usable hostbook database: \(e.message)",
                                     remedy: .checkDatabase(path: path), sqliteCode: 0)
            }
            if e.sqliteCode & 0xff == 13 { // SQLITE_FULL: the write was rolled back, nothing is half-written
                throw HostStoreError(.failed, "the disk holding the database '\(path)' is full; nothing was written",
                                     hint: "Free some space on it, then try again.")
            }
            if e.sqliteCode & 0xff == 8 { // SQLITE_READONLY
                throw HostStoreError(.failed, "the database '\(path)' is read-only: \(e.message)",
                                     hint: "Check the permissions of the file and its folder.")
            }
            throw HostStoreError(.failed, "database error in '\(path)': \(e.message)")
        }
    }
}
