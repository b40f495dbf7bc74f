// The database's own health, checked without changing anything: file modes, the schema
// version, SQLite's integrity and foreign-key checks.
import System

public struct DatabaseReport: Sendable {
    public var exists = false
    public var schemaVersion: Int?
    public var findings: [DoctorFinding] = []
}

public enum DatabaseChecks {
    public static func run(path: String) -> DatabaseReport {
        var report = DatabaseReport()
        let exists: Bool
        do {
            exists = try DatabaseTrust.databaseExists(path)
        } catch {
            report.exists = true
            report.findings.append(unreadable(path, error))
            return report
        }
        guard exists else { return report }
        report.exists = true
        // A database hostbook refuses to use is not opened here either.
        let distrusted = DatabaseTrust.problems(path)
        if !distrusted.isEmpty {
            report.findings += distrusted.map {
                DoctorFinding(check: "database.trust", severity: .error, message: $0.message, fix: $0.fix)
            }
            report.findings += modes(path: path).filter { f in !distrusted.contains { f.message.contains("'\($0.path)'") } }
            return report
        }
        report.findings += modes(path: path)
        for file in DatabaseFiles.companions(of: path) where file.hasSuffix(".partial") {
            report.findings.append(DoctorFinding(
                check: "database.backup", severity: .warning,
                message: "'\(file)' is an unfinished backup left by an interrupted migration",
                fix: "Remove it: rm '\(file)' (the complete backups end in .bak)."))
        }

        let conn: SQLiteConnection
        do {
            try DatabaseTrust.requireReadable(path)
            conn = try HostDatabase.connectForReading(path: path)
            conn.setBusyTimeout(milliseconds: HostDatabase.busyTimeoutMilliseconds)
            let version = try conn.userVersion
            report.schemaVersion = version
            if version > Schema.currentVersion {
                report.findings.append(DoctorFinding(
                    check: "database.schema", severity: .error,
                    message: "database schema version \(version) is newer than this hostbook supports (\(Schema.currentVersion))",
                    fix: "Upgrade hostbook; the database was left untouched."))
                return report
            }
        } catch {
            report.findings.append(unreadable(path, error))
            return report
        }
        do {
            let problems = try conn.query("PRAGMA integrity_check").compactMap { $0.text(0) }
            if problems != ["ok"] {
                report.findings.append(DoctorFinding(
                    check: "database.integrity", severity: .error,
                    message: "the database failed SQLite's integrity check (\(problems.count) problem\(problems.count == 1 ? "" : "s"); first: \(problems.first ?? "?"))",
                    fix: "Restore a backup (\(path).vN.bak) or recover what is readable with: sqlite3 '\(path)' .recover | sqlite3 recovered.db"))
            }
            let orphans = try conn.query("PRAGMA foreign_key_check")
            if !orphans.isEmpty {
                let tables = Set(orphans.compactMap { $0.text(0) }).sorted().joined(separator: ", ")
                report.findings.append(DoctorFinding(
                    check: "database.foreign-keys", severity: .error,
                    message: "\(orphans.count) row\(orphans.count == 1 ? "" : "s") in \(tables) point\(orphans.count == 1 ? "s" : "") at rows that do not exist",
                    fix: "Run: sqlite3 '\(path)' 'PRAGMA foreign_key_check' to see them, then fix or remove those rows."))
            }
        } catch {
            report.findings.append(unreadable(path, error))
        }
        return report
    }

    /// The folder should be 0700 and every database file 0600: nobody else may read them.
    static func modes(path: String) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        // A bare file name (the current folder) is not the database's own folder: not checked.
        let folder = ParentFolder.of(path)
        if path.contains("/"), let m = DatabaseFiles.mode(of: folder), m & 0o077 != 0 {
            out.append(DoctorFinding(check: "database.permissions", severity: .warning,
                                     message: "the folder '\(folder)' can be read by other users (mode \(octal(m)))",
                                     fix: "Run: chmod 700 '\(folder)'"))
        }
        for file in DatabaseFiles.companions(of: path) {
            if let m = DatabaseFiles.mode(of: file), m & 0o077 != 0 {
                out.append(DoctorFinding(check: "database.permissions", severity: .warning,
                                         message: "the file '\(file)' can be read or written by other users (mode \(octal(m)))",
                                         fix: "Run: chmod 600 '\(file)'"))
            }
        }
        return out
    }

    static func unreadable(_ path: String, _ error: Error) -> DoctorFinding {
        if let e = error as? HostStoreError, let hint = e.advice, e.message.hasPrefix("cannot read the database") {
            return DoctorFinding(check: "database.open", severity: .error, message: e.message, fix: hint)
        }
        let why = (error as? HostStoreError)?.message ?? "\(error)"
        return DoctorFinding(check: "database.open", severity: .error,
                             message: "the database cannot be read: \(why)",
                             fix: "Restore a backup (\(path).vN.bak), or move the file away to start a new database.")
    }

    static func octal(_ m: UInt32) -> String {
        let s = String(m, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
