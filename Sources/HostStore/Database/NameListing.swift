// The saved names of one kind, for shell completion: one read-only SELECT, no migration,
// nothing created. A missing, unreadable, foreign or newer database lists nothing — a
// completion must never fail loudly, block on a lock, or write.

public enum NameListing {
    public enum Kind: String, Sendable, CaseIterable {
        case hosts, keys, snippets

        /// Every row's name in name order; the table is this kind's own.
        var sql: String { "SELECT name FROM \(rawValue) ORDER BY name COLLATE NOCASE" }
    }

    /// The names of `kind` in the database at `path` that start with `prefix` (regardless
    /// of case); empty when there is no usable database.
    public static func names(_ kind: Kind, databasePath path: String, prefix: String = "") -> [String] {
        guard DatabaseFiles.exists(path),
              let connection = try? SQLiteConnection(path: path, create: false, readOnly: true) else { return [] }
        // A writer holding the lock must not stall a keypress for long.
        connection.setBusyTimeout(milliseconds: 200)
        guard let statement = try? connection.prepare(kind.sql) else { return [] }
        let wanted = prefix.lowercased()
        var names: [String] = []
        while (try? statement.step()) == true {
            guard let name = statement.text(at: 0) else { continue }
            if wanted.isEmpty || name.lowercased().hasPrefix(wanted) { names.append(name) }
        }
        return names
    }
}
