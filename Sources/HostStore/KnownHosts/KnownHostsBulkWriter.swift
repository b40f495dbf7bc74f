// The known-hosts store's writer for importers that trust many keys inside a transaction
// they own (the Tailscale import): statements prepared once, plain entries only, each write
// with its audit event. What to write is decided by the caller through HostKeyPolicy; this
// only reads and writes the trust tables (KnownHostsSQL).
import KeyFormats

extension KnownHostsStore {
    final class BulkWriter {
        let connection: SQLiteConnection
        private let findPlain: Statement
        private let keepImportedEvent: Statement
        private let deleteEntry: Statement
        private let insertEntry: Statement
        private let insertEvent: Statement
        private var indexesDropped = false

        /// Must be used inside a transaction on `connection`.
        init(connection: SQLiteConnection) throws {
            self.connection = connection
            findPlain = try connection.prepare(KnownHostsSQL.plainAtPort)
            keepImportedEvent = try connection.prepare(KnownHostsSQL.keepImportedEvent)
            deleteEntry = try connection.prepare(KnownHostsSQL.deleteByID)
            insertEntry = try connection.prepare(KnownHostsSQL.insertPlain)
            insertEvent = try connection.prepare(KnownHostsSQL.insertEvent)
        }

        /// True when the store holds no entry at all.
        func storeIsEmpty() throws -> Bool { try connection.query(KnownHostsSQL.any).isEmpty }

        /// Plain entries for `host` at `port` (ASCII case ignored), through the name index.
        func plainEntries(_ host: String, port: Int) throws -> [KnownHostRow] {
            findPlain.reset()
            try findPlain.bind([.text(host), .int(Int64(port))])
            var rows: [KnownHostRow] = []
            while try findPlain.step() {
                let row = KnownHostRow(statement: findPlain)
                if row.kind == .plain { rows.append(row) }
            }
            return rows
        }

        /// Every pattern-list and hashed entry (a plain lookup cannot find them).
        func specialEntries() throws -> [KnownHostRow] {
            let s = try connection.prepare(KnownHostsSQL.special)
            var rows: [KnownHostRow] = []
            while try s.step() { rows.append(KnownHostRow(statement: s)) }
            return rows
        }

        /// A large write into an empty store: drop the lookup indexes now and build them once
        /// in `finish()` (inside the caller's transaction, so a failure restores them).
        func dropIndexes() throws {
            for index in KnownHostsSchema.indexes { try connection.execute(KnownHostsSQL.dropIndex(index.name)) }
            indexesDropped = true
        }

        /// Rebuilds the indexes `dropIndexes()` dropped.
        func finish() throws {
            guard indexesDropped else { return }
            for index in KnownHostsSchema.indexes { try connection.execute(index.sql) }
            indexesDropped = false
        }

        /// Trusts `key` for the plain name `host` at `port`; with `replacing`, those entries
        /// are removed first and the event is `replaced` (old fingerprint `oldFingerprint`),
        /// otherwise it is `imported`. Returns the new entry's row id.
        @discardableResult
        func trust(_ host: String, port: Int, key: PublicKey, fingerprint: String, replacing: [Int64] = [],
                   oldFingerprint: String? = nil, source: String, at now: String) throws -> Int64 {
            for id in replacing {
                // An imported entry's derived event is stored first (KnownHostsStore.deleteEntry).
                try run(keepImportedEvent, [.int(id)])
                try run(deleteEntry, [.int(id)])
            }
            try run(insertEntry, [.text(host), .int(Int64(port)), .text(KnownHostsLine.Marker.none.rawValue), .text(key.type),
                                  .blob(key.blob), .text(fingerprint), .text(source), .text(now), .text(now)])
            let id = connection.lastInsertRowID
            let kind: HostKeyEvent.Kind = replacing.isEmpty && oldFingerprint == nil ? .imported : .replaced
            try run(insertEvent, [.text(now), .text(kind.rawValue), .text(host), .int(Int64(port)), .text(key.type),
                                  .text(fingerprint), oldFingerprint.map { .text($0) } ?? .null, .text(source)])
            return id
        }

        private func run(_ statement: Statement, _ values: [SQLValue]) throws {
            statement.reset()
            try statement.bind(values)
            while try statement.step() {}
        }
    }
}
