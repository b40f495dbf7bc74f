// A small, safe wrapper over the SQLite C API: one connection, prepared statements with
// typed binds and columns, transactions. C types stay inside this file.
internal import CSQLite3

extension HostStoreError {
    /// An SQLite failure: kind `.database`, SQLite's message, its result code kept.
    static func database(code: Int32, message: String) -> HostStoreError {
        HostStoreError(.database, message, sqliteCode: code)
    }

    /// SQLite said busy or locked: another connection holds the lock.
    public var isBusy: Bool { kind == .database && (sqliteCode & 0xff == SQLITE_BUSY || sqliteCode & 0xff == SQLITE_LOCKED) }
    var isConstraint: Bool { kind == .database && sqliteCode & 0xff == SQLITE_CONSTRAINT }
}

/// A value bound to or read from SQL.
enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case text(String)
    case blob([UInt8])
    case double(Double)
}

final class SQLiteConnection {
    fileprivate let handle: OpaquePointer
    let path: String

    /// Opens (creating when `create`) the database at `path`; a symbolic link is refused.
    /// `immutable` reads the file as it is, without locks or a -shm file (for a database in a
    /// folder the user may not write; see `HostDatabase`); it implies `readOnly`.
    init(path: String, create: Bool = true, readOnly: Bool = false, immutable: Bool = false) throws {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW
        if readOnly || immutable { flags |= SQLITE_OPEN_READONLY } else { flags |= SQLITE_OPEN_READWRITE }
        if create && !readOnly && !immutable { flags |= SQLITE_OPEN_CREATE }
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + SQLiteConnection.uriEscaped(path) + "?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw HostStoreError.database(code: rc, message: "cannot open database '\(path)': \(msg)")
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        SQLiteFingerprintFunction.register(on: db)
    }

    deinit { sqlite3_close_v2(handle) }

    /// `path` for a `file:` URI: every byte except unreserved characters and `/` as %XX.
    static func uriEscaped(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Milliseconds SQLite waits on a locked database before failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(err)
            throw HostStoreError.database(code: rc, message: msg)
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc) }
        return Statement(stmt, connection: self)
    }

    /// Runs a statement with `bindings` and returns every row.
    @discardableResult
    func query(_ sql: String, _ bindings: [SQLValue] = []) throws -> [Row] {
        let s = try prepare(sql)
        try s.bind(bindings)
        var rows: [Row] = []
        while try s.step() { rows.append(s.row()) }
        return rows
    }

    /// Runs a statement with `bindings`, ignoring rows; returns the number of changed rows.
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int {
        let s = try prepare(sql)
        try s.bind(bindings)
        while try s.step() {}
        return changes
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a transaction (BEGIN IMMEDIATE by default, so a writer takes the write
    /// lock up front and waits on the busy timeout instead of failing half way).
    func transaction<R>(immediate: Bool = true, _ body: () throws -> R) throws -> R {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let r = try body()
            try execute("COMMIT")
            return r
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` and returns it with the number of SQLite virtual-machine instructions
    /// this connection executed meanwhile (counted by `sqlite3_progress_handler` every
    /// `period` instructions, so a multiple of it): the work SQLite did, for tests that
    /// show how it grows with the input without reading a clock.
    func countingInstructions<R>(period: Int32 = 16, _ body: () throws -> R) rethrows -> (result: R, instructions: Int) {
        let counter = InstructionCounter()
        sqlite3_progress_handler(handle, period, { context in
            Unmanaged<InstructionCounter>.fromOpaque(context!).takeUnretainedValue().ticks += 1
            return 0
        }, Unmanaged.passUnretained(counter).toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        let result = try withExtendedLifetime(counter) { try body() }
        return (result, counter.ticks * Int(period))
    }

    /// Runs `body` and returns it with the number of SQL statements this connection started
    /// meanwhile (sqlite3_trace_v2's SQLITE_TRACE_STMT, once per run of a prepared
    /// statement): for tests that show a listing reads every host with a fixed number of
    /// queries, not one more per host.
    func countingStatements<R>(_ body: () throws -> R) rethrows -> (result: R, statements: Int) {
        let counter = InstructionCounter()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, _, _ in
            Unmanaged<InstructionCounter>.fromOpaque(context!).takeUnretainedValue().ticks += 1
            return 0
        }, Unmanaged.passUnretained(counter).toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        let result = try withExtendedLifetime(counter) { try body() }
        return (result, counter.ticks)
    }

    /// `PRAGMA user_version`.
    var userVersion: Int {
        get throws { Int(try query("PRAGMA user_version").first?.int(0) ?? 0) }
    }

    func setUserVersion(_ v: Int) throws { try execute("PRAGMA user_version = \(v)") }

    fileprivate func error(_ rc: Int32) -> HostStoreError {
        HostStoreError.database(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// The tally of `SQLiteConnection.countingInstructions` and `countingStatements`.
private final class InstructionCounter {
    var ticks = 0
}

/// A row copied out of a statement.
struct Row: Sendable {
    let values: [SQLValue]

    func int(_ i: Int) -> Int64? { if case .int(let v) = values[i] { return v }; return nil }
    func text(_ i: Int) -> String? { if case .text(let v) = values[i] { return v }; return nil }
    func blob(_ i: Int) -> [UInt8]? {
        switch values[i] { case .blob(let v): return v; case .text(let t): return Array(t.utf8); default: return nil }
    }
    func isNull(_ i: Int) -> Bool { values[i] == .null }
}

final class Statement {
    private let stmt: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ stmt: OpaquePointer, connection: SQLiteConnection) {
        self.stmt = stmt
        self.connection = connection
    }

    deinit { sqlite3_finalize(stmt) }

    func bind(_ values: [SQLValue]) throws {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(stmt, index)
        case .int(let n): rc = sqlite3_bind_int64(stmt, index, n)
        case .double(let d): rc = sqlite3_bind_double(stmt, index, d)
        case .text(let s): rc = sqlite3_bind_text(stmt, index, s, -1, csqlite3_transient())
        case .blob(let b):
            rc = b.withUnsafeBytes { buf in
                // A zero-length blob must still be a blob, not NULL.
                sqlite3_bind_blob(stmt, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), csqlite3_transient())
            }
        }
        if rc != SQLITE_OK { throw connection.error(rc) }
    }

    /// Binds `values` and runs the statement to completion, with SQLite reading text and
    /// blobs in place instead of copying each (SQLITE_STATIC): the bytes are borrowed only
    /// while the statement runs, and the bindings are cleared before they are given back.
    /// For a statement that returns no rows (an insert run once per line of a large import).
    func run(borrowing values: [SQLValue]) throws {
        sqlite3_reset(stmt)
        defer {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
        }
        try bindBorrowed(values, from: 0)
    }

    /// Binds `values[i...]`, each text or blob inside the closure that lends its bytes, and
    /// steps to the end inside the innermost one.
    private func bindBorrowed(_ values: [SQLValue], from i: Int) throws {
        guard i < values.count else {
            while try step() {}
            return
        }
        let index = Int32(i + 1)
        switch values[i] {
        case .text(var s):
            try s.withUTF8 { buf in
                if let base = buf.baseAddress {
                    let rc = sqlite3_bind_text(stmt, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(buf.count), nil)
                    if rc != SQLITE_OK { throw connection.error(rc) }
                } else {
                    try bind(.text(""), at: index)  // no bytes to lend; "" must not become NULL
                }
                try bindBorrowed(values, from: i + 1)
            }
        case .blob(let b):
            try b.withUnsafeBytes { buf in
                let rc = sqlite3_bind_blob(stmt, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), nil)
                if rc != SQLITE_OK { throw connection.error(rc) }
                try bindBorrowed(values, from: i + 1)
            }
        default:
            try bind(values[i], at: index)
            try bindBorrowed(values, from: i + 1)
        }
    }

    /// Advances; true when a row is available.
    func step() throws -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc)
    }

    /// Resets for re-use with new bindings.
    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    var columnCount: Int { Int(sqlite3_column_count(stmt)) }

    /// Column `i` of the current row as text, or nil when NULL (no intermediate `Row`).
    func text(at i: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, i) else { return nil }
        let n = Int(sqlite3_column_bytes(stmt, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Column `i` of the current row as its UTF-8 bytes without copying them (nil when NULL);
    /// the buffer is valid only inside `body`.
    func withUTF8<R>(at i: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard let p = sqlite3_column_text(stmt, i) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, i))))
    }

    /// Column `i` of the current row as bytes without copying them (empty when NULL); the
    /// buffer is valid only inside `body`.
    func withBlob<R>(at i: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let p = sqlite3_column_blob(stmt, i) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, i))))
    }

    /// Column `i` of the current row as an integer, or nil when NULL.
    func int(at i: Int32) -> Int64? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, i)
    }

    func row() -> Row {
        Row(values: (0..<Int32(columnCount)).map { column($0) })
    }

    func column(_ i: Int32) -> SQLValue {
        switch sqlite3_column_type(stmt, i) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(stmt, i))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(stmt, i))
        case SQLITE_TEXT:
            let n = Int(sqlite3_column_bytes(stmt, i))
            guard let p = sqlite3_column_text(stmt, i) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(stmt, i))
            guard n > 0, let p = sqlite3_column_blob(stmt, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
        default: return .null
        }
    }
}
