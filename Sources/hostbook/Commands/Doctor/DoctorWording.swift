// The words of what doctor's checks observed (Workflows' DoctorObservation): each finding's
// check name, severity, message and fix, and each note. Vault attributes and names come from
// outside and are quoted; the fixes are hostbook and secret-tool command lines.
import HostStore
import KeyFormats
import Vault
import Workflows

/// What the checks found, worded: the findings, and the lines saying what was fine.
struct DoctorResult {
    var findings: [DoctorFinding] = []
    var notes: [String] = []

    mutating func add(_ observation: DoctorObservation) {
        switch DoctorWording.words(observation) {
        case .finding(let f): findings.append(f)
        case .note(let n): notes.append(n)
        }
    }
}

enum DoctorWording {
    enum Words {
        case finding(DoctorFinding)
        case note(String)
    }

    static func words(_ o: DoctorObservation) -> Words {
        switch o {
        case .database(let finding):
            return .finding(finding)
        case .vaultUnavailable(let needed, let status, let error):
            return .finding(DoctorFinding(check: "vault.status", severity: needed ? .error : .warning,
                                          message: "the vault cannot be checked: \(error?.message ?? status.name)",
                                          fix: error?.hint ?? "Run 'hostbook vault status' to see what is wrong."))
        case .vaultUnreadable(let e):
            return .finding(DoctorFinding(check: "vault.status", severity: .error, message: "the vault cannot be checked: \(e.message)",
                                          fix: e.hint ?? "Run 'hostbook vault status' to see what is wrong."))
        case .vaultOwnersUnreadable(let reason):
            return .finding(DoctorFinding(check: "vault.status", severity: .error,
                                          message: "the database cannot be read for the vault check: \(reason)",
                                          fix: "See the database findings above."))
        case .orphanPassword(let item, let databaseID, let host):
            let message = host.map { "the vault holds a password for host '\(PrintableText.quoted($0))', which does not use one" }
                ?? "the vault holds a password whose host no longer exists (owner \(PrintableText.quoted(item.owner)))"
            return .finding(DoctorFinding(check: "vault.orphan", severity: .warning, message: message,
                                          fix: "Delete it with: \(clear(item, databaseID))"))
        case .orphanPrivateKey(let item, let databaseID):
            return .finding(DoctorFinding(check: "vault.orphan", severity: .warning,
                                          message: "the vault holds a private key whose key no longer exists (owner \(PrintableText.quoted(item.owner)))",
                                          fix: "Delete it with: \(clear(item, databaseID))"))
        case .missingPassword(let host):
            return .finding(DoctorFinding(check: "vault.missing", severity: .error,
                                          message: "host '\(PrintableText.quoted(host))' uses a password, but the vault has none for it",
                                          fix: "Store it again with 'hostbook edit \(ShellQuote.quote(host)) --password-stdin', or stop using one with 'hostbook edit \(ShellQuote.quote(host)) --no-password'."))
        case .missingPrivateKey(let key, let fingerprint):
            let which = fingerprint.map { " (the one whose fingerprint is \($0))" } ?? ""
            return .finding(DoctorFinding(check: "vault.missing", severity: .error,
                                          message: "key '\(PrintableText.quoted(key))' has no private key in the vault",
                                          fix: "Restore it from its private key file\(which): 'hostbook keys import PATH --name \(ShellQuote.quote(key))' puts it back in the vault and leaves the key and its hosts as they are."))
        case .restrictedKey(let key):
            return .finding(DoctorFinding(
                check: "keys.namespace", severity: .error,
                message: "key '\(key.key)' signs only in namespace \(key.namespaces.joined(separator: ", ")), but saved hosts log in with it (ssh to them is refused): \(key.hosts.joined(separator: ", "))",
                fix: "Run: hostbook keys edit \(ShellQuote.quote(key.key)) --no-namespace (for git signing, make a dedicated key: hostbook git setup --new-key \(GitSetup.offeredKeyName))"))
        case .certificateEnds(let key, let keyID, let serial, let end, let expired):
            let what = "the certificate of key '\(key)' (key id \"\(keyID)\", serial \(serial))"
            return .finding(DoctorFinding(check: "keys.certificate", severity: .warning,
                                          message: expired ? "\(what) expired at \(end): the agents no longer offer it" : "\(what) expires at \(end), within 7 days",
                                          fix: "Get a renewed certificate from your CA, then run: hostbook keys cert add \(ShellQuote.quote(key)) FILE"))
        case .noDatabase(let path):
            return .note("Database: none yet at \(path) (the first command that writes creates it).")
        case .databaseHealthy(let path, let version, let migratesTo):
            let upgrade = migratesTo.map { " (the next hostbook command migrates it to \($0), after a backup)" } ?? ""
            return .note("Database: \(path), schema version \(version)\(upgrade), integrity ok, private file modes.")
        case .databaseAt(let path):
            return .note("Database: \(path)")
        case .vaultConsistent(let items):
            return .note("Vault: \(items) item\(items == 1 ? "" : "s"), each owned by a host or key; no secret missing.")
        }
    }

    /// The secret-tool line that deletes `item`; vault attributes come from the keyring, not
    /// from hostbook: every word is quoted.
    private static func clear(_ item: VaultItemID, _ databaseID: String) -> String {
        ["secret-tool", "clear", "db", databaseID, "kind", item.kind.rawValue, "owner", item.owner].map(ShellQuote.quote).joined(separator: " ")
    }
}
