// One open database read by several threads (an agent's signing threads): each read runs
// whole under one lock, on the connection the command opened (serialized by SQLite itself
// underneath, SQLITE_OPEN_FULLMUTEX). What holds one never opens the database again from
// its path.
import System

public final class SharedDatabase: @unchecked Sendable {
    private let database: HostDatabase
    private let lock = Lock()

    public init(_ database: HostDatabase) {
        self.database = database
    }

    /// `body` with the database, no other thread's read running meanwhile.
    public func read<T>(_ body: (HostDatabase) throws -> T) rethrows -> T {
        try lock.locked { try body(database) }
    }
}
