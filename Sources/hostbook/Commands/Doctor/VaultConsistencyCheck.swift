// The vault against the database (docs/architecture.md, "Layers": the two-store write order):
// items no row owns (orphans), hosts with auth=password whose password is missing, keys whose
// private key is missing. An unreachable or locked vault is a finding, not a crash.
import HostStore
import KeyFormats
import Vault

struct VaultConsistencyCheck: DoctorCheck {
    func run(_ c: DoctorContext) -> DoctorResult {
        var r = DoctorResult()
        guard let db = c.database else { return r }
        let health = VaultClient.health()
        guard health.status == .ok else {
            // Without secrets to look after, an absent vault only means the check could not run.
            let needsVault = ((try? db.hostSecretOwners().passwords.isEmpty) == false) || ((try? db.keySecretOwners().isEmpty) == false)
            r.findings.append(DoctorFinding(check: "vault.status", severity: needsVault ? .error : .warning,
                                            message: "the vault cannot be checked: \(health.error?.message ?? health.status.name)",
                                            fix: health.error?.hint ?? "Run 'hostbook vault status' to see what is wrong."))
            return r
        }
        let vault = VaultClient(databaseID: db.databaseID)
        let items: [VaultItemID]
        let hosts: (passwords: [SecretOwner], others: [SecretOwner])
        let keys: [SecretOwner]
        do {
            items = try vault.allItems()
            hosts = try db.hostSecretOwners()
            keys = try db.keySecretOwners()
        } catch let e as VaultError {
            r.findings.append(DoctorFinding(check: "vault.status", severity: .error,
                                            message: "the vault cannot be checked: \(e.message)",
                                            fix: e.hint ?? "Run 'hostbook vault status' to see what is wrong."))
            return r
        } catch {
            r.findings.append(DoctorFinding(check: "vault.status", severity: .error,
                                            message: "the database cannot be read for the vault check: \(error)",
                                            fix: "See the database findings above."))
            return r
        }
        let have = Set(items)
        let passwordOwners = Dictionary(hosts.passwords.map { ($0.uuid, $0.name) }, uniquingKeysWith: { a, _ in a })
        let otherHosts = Dictionary(hosts.others.map { ($0.uuid, $0.name) }, uniquingKeysWith: { a, _ in a })
        let keyOwners = Dictionary(keys.map { ($0.uuid, $0.name) }, uniquingKeysWith: { a, _ in a })

        for item in items.sorted(by: { ($0.kind.rawValue, $0.owner) < ($1.kind.rawValue, $1.owner) }) {
            // Vault attributes come from the keyring, not from hostbook: every word is quoted.
            let clear = (["secret-tool", "clear", "db", db.databaseID, "kind", item.kind.rawValue, "owner", item.owner])
                .map(ShellQuote.quote).joined(separator: " ")
            switch item.kind {
            case .password where passwordOwners[item.owner] == nil:
                let message = otherHosts[item.owner].map { "the vault holds a password for host '\(PrintableText.quoted($0))', which does not use one" }
                    ?? "the vault holds a password whose host no longer exists (owner \(PrintableText.quoted(item.owner)))"
                r.findings.append(DoctorFinding(check: "vault.orphan", severity: .warning, message: message, fix: "Delete it with: \(clear)"))
            case .privateKey where keyOwners[item.owner] == nil:
                r.findings.append(DoctorFinding(check: "vault.orphan", severity: .warning,
                                                message: "the vault holds a private key whose key no longer exists (owner \(PrintableText.quoted(item.owner)))",
                                                fix: "Delete it with: \(clear)"))
            default:
                break
            }
        }
        for h in hosts.passwords where !have.contains(VaultItemID(kind: .password, owner: h.uuid)) {
            r.findings.append(DoctorFinding(check: "vault.missing", severity: .error,
                                            message: "host '\(PrintableText.quoted(h.name))' uses a password, but the vault has none for it",
                                            fix: "Store it again with 'hostbook edit \(ShellQuote.quote(h.name)) --password-stdin', or stop using one with 'hostbook edit \(ShellQuote.quote(h.name)) --no-password'."))
        }
        for k in keys where !have.contains(VaultItemID(kind: .privateKey, owner: k.uuid)) {
            // Importing the same key again restores the item (CredentialStore.admission).
            let fingerprint = (try? KeyStore(database: db).find(uuid: k.uuid))?.fingerprint
            let which = fingerprint.map { " (the one whose fingerprint is \($0))" } ?? ""
            r.findings.append(DoctorFinding(check: "vault.missing", severity: .error,
                                            message: "key '\(PrintableText.quoted(k.name))' has no private key in the vault",
                                            fix: "Restore it from its private key file\(which): 'hostbook keys import PATH --name \(ShellQuote.quote(k.name))' puts it back in the vault and leaves the key and its hosts as they are."))
        }
        if r.findings.isEmpty {
            r.notes.append("Vault: \(items.count) item\(items.count == 1 ? "" : "s"), each owned by a host or key; no secret missing.")
        }
        return r
    }
}
