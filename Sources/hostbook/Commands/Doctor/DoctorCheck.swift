// What a doctor check is, what it is given, and the list of checks that run.
import HostStore

/// What the checks look at: the database path, its report, and (when it can be read at a
/// schema this program knows) a read-only handle. Nothing is created or migrated.
final class DoctorContext {
    let path: String
    let report: DatabaseReport
    let database: HostDatabase?
    /// The doctor's invocation (paths of the installed ssh configuration and the agent).
    var invocation: Invocation?

    init(path: String) {
        self.path = path
        report = DatabaseChecks.run(path: path)
        if report.exists, let v = report.schemaVersion, v >= 1, v <= Schema.currentVersion,
           !report.findings.contains(where: { $0.check == "database.open" }) {
            database = try? HostDatabase.openForInspection(path: path)
        } else {
            database = nil
        }
    }
}

struct DoctorResult {
    var findings: [DoctorFinding] = []
    /// Lines saying what was checked and found fine.
    var notes: [String] = []
}

protocol DoctorCheck: Sendable {
    func run(_ context: DoctorContext) -> DoctorResult
}

enum DoctorChecks {
    static let all: [any DoctorCheck] = [DatabaseCheck(), VaultConsistencyCheck(), RestrictedKeyCheck(), CertificateExpiryCheck(), SSHClientCheck(), InstalledSSHConfigCheck()]
}

/// The database file: modes, schema version, integrity, foreign keys.
struct DatabaseCheck: DoctorCheck {
    func run(_ c: DoctorContext) -> DoctorResult {
        var r = DoctorResult(findings: c.report.findings)
        if !c.report.exists {
            r.notes.append("Database: none yet at \(c.path) (the first command that writes creates it).")
        } else if r.findings.isEmpty {
            let version = c.report.schemaVersion ?? 0
            let upgrade = version < Schema.currentVersion
                ? " (the next hostbook command migrates it to \(Schema.currentVersion), after a backup)" : ""
            r.notes.append("Database: \(c.path), schema version \(version)\(upgrade), integrity ok, private file modes.")
        } else {
            r.notes.append("Database: \(c.path)")
        }
        return r
    }
}
