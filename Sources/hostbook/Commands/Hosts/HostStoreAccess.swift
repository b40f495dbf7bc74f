// How commands reach the database: through their workspace, which opens it once. Writers
// open (and create, and migrate) it; readers open it read-only and treat a missing database
// as an empty one, creating nothing.
import HostStore

enum HostStoreAccess {
    /// For commands that write: creates the database when there is none.
    static func openForWriting(_ inv: Invocation) throws -> HostDatabase {
        try inv.workspace.database()
    }

    /// For commands that only read: nil when there is no database yet.
    static func openForReading(_ inv: Invocation) throws -> HostDatabase? {
        try inv.workspace.existingDatabase()
    }
}
