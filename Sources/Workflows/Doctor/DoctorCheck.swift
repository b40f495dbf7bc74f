// What a doctor check is, what it is given, and the checks over the database and the vault.
// Each check returns what it observed as data (DoctorObservation); the program words each
// one, and runs after these the checks of the ssh client (SSHClientCheck) and the installed
// ssh configuration (InstalledSSHConfigCheck), to which it hands its own paths.
import HostStore

/// What the checks look at: the database path, its report, and (when it can be read at a
/// schema this program knows) a read-only handle. Nothing is created or migrated.
public final class DoctorContext {
    public let path: String
    public let report: DatabaseReport
    public let database: HostDatabase?

    public init(workspace: Workspace) {
        path = workspace.databasePath
        report = DatabaseChecks.run(path: path)
        if report.exists, let v = report.schemaVersion, v >= 1, v <= Schema.currentVersion,
           !report.findings.contains(where: { $0.check == "database.open" }) {
            database = try? workspace.inspectedDatabase()
        } else {
            database = nil
        }
    }
}

public protocol DoctorCheck: Sendable {
    func run(_ context: DoctorContext) -> [DoctorObservation]
}

public enum DoctorChecks {
    /// In the order they run and report.
    public static let all: [any DoctorCheck] = [DatabaseCheck(), VaultConsistencyCheck(), RestrictedKeyCheck(), CertificateExpiryCheck()]

    /// Every check of `all` over `context`, in order.
    public static func run(_ context: DoctorContext) -> [DoctorObservation] {
        all.flatMap { $0.run(context) }
    }
}

/// The database file: modes, schema version, integrity, foreign keys (HostStore's
/// DatabaseChecks, whose findings are its own).
public struct DatabaseCheck: DoctorCheck {
    public init() {}

    public func run(_ c: DoctorContext) -> [DoctorObservation] {
        let findings = c.report.findings.map(DoctorObservation.database)
        if !c.report.exists { return [.noDatabase(path: c.path)] + findings }
        guard findings.isEmpty else { return [.databaseAt(path: c.path)] + findings }
        let version = c.report.schemaVersion ?? 0
        return [.databaseHealthy(path: c.path, version: version, migratesTo: version < Schema.currentVersion ? Schema.currentVersion : nil)]
    }
}
