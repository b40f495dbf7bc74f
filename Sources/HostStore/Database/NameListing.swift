// The saved names of one kind, for shell completion: one read-only SELECT, no migration,
// nothing created. A missing, unreadable, untrusted, foreign or newer database lists nothing — a
// completion must never fail loudly, block on a lock, or write.

public enum NameListing {
    public enum Kind: String, Sendable, CaseIterable {
        case hosts, keys, snippets

        /// The names that start with ?1 (a LIKE pattern), in name order. `name` is declared
        /// COLLATE NOCASE, so this LIKE (case-insensitive for ASCII) is a range scan of the
        /// name's unique index, not a scan of the table.
        var sql: String { "SELECT name FROM \(rawValue) WHERE name LIKE ?1 ESCAPE '\\' ORDER BY name COLLATE NOCASE" }

        /// Hosts with their aliases (HostAliasSchema, version 5), each a range scan too;
        /// `sql` for a database not migrated yet.
        var sqlWithAliases: String? {
            guard self == .hosts else { return nil }
            return """
                SELECT name FROM hosts WHERE name LIKE ?1 ESCAPE '\\'
                UNION ALL SELECT alias FROM host_aliases WHERE alias LIKE ?1 ESCAPE '\\'
                ORDER BY 1 COLLATE NOCASE
                """
        }
    }

    /// The names of `kind` in the database at `path` that start with `prefix` (regardless
    /// of case); empty when there is no usable database.
    public static func names(_ kind: Kind, databasePath path: String, prefix: String = "") -> [String] {
        // A database hostbook refuses (DatabaseTrust) lists nothing either; one in a folder
        // the user may not write is read as the other readers read it.
        guard DatabaseFiles.exists(path), DatabaseTrust.problems(path).isEmpty,
              let connection = try? HostDatabase.connectForReading(path: path) else { return [] }
        // A writer holding the lock must not stall a keypress for long.
        connection.setBusyTimeout(milliseconds: 200)
        guard let statement = kind.sqlWithAliases.flatMap({ try? connection.prepare($0) }) ?? (try? connection.prepare(kind.sql)),
              (try? statement.bind([.text(likePrefix(prefix))])) != nil else { return [] }
        var names: [String] = []
        while (try? statement.step()) == true {
            if let name = statement.text(at: 0) { names.append(name) }
        }
        return names
    }

    /// `prefix` as a LIKE pattern: its own `%`, `_` and `\` matched literally, then `%`.
    static func likePrefix(_ prefix: String) -> String {
        var pattern = ""
        for c in prefix {
            if c == "%" || c == "_" || c == "\\" { pattern.append("\\") }
            pattern.append(c)
        }
        return pattern + "%"
    }
}
