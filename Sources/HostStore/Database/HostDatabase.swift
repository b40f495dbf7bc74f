// The hostbook database: path, file modes, pragmas and migrations (DESIGN.md, "Data").
// FIRST VERSION — being hardened (backup before migrating, refusal of newer databases, modes).
#if canImport(Glibc)
import Glibc
#endif

public final class HostDatabase {
    public let connection: SQLiteConnection
    public let path: String
    /// The random UUID in `meta` that scopes this database's vault items.
    public let databaseID: String

    /// Opens or creates the database at `path` and brings its schema up to date.
    public static func open(path: String) throws -> HostDatabase {
        let dir = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !dir.isEmpty { _ = mkdir(dir, 0o700) }
        let conn = try SQLiteConnection(path: path)
        conn.setBusyTimeout(milliseconds: 10_000)
        try conn.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
        try Schema.migrate(conn)
        let id = try conn.query("SELECT value FROM meta WHERE key = 'database_id'").first?.text(0) ?? ""
        return HostDatabase(connection: conn, path: path, databaseID: id)
    }

    init(connection: SQLiteConnection, path: String, databaseID: String) {
        self.connection = connection
        self.path = path
        self.databaseID = databaseID
    }
}
