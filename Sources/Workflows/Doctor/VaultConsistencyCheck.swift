// The vault against the database (docs/architecture.md, "Layers": the two-store write order):
// items no row owns (orphans), hosts with auth=password whose password is missing, keys whose
// private key is missing. An unreachable or locked vault is a finding, not a crash.
import HostStore
import KeyFormats
import Vault

public struct VaultConsistencyCheck: DoctorCheck {
    public init() {}

    public func run(_ c: DoctorContext) -> [DoctorObservation] {
        guard let db = c.database else { return [] }
        let health = VaultClient.health()
        guard health.status == .ok else {
            // Without secrets to look after, an absent vault only means the check could not run.
            let needsVault = ((try? db.hostSecretOwners().passwords.isEmpty) == false) || ((try? db.keySecretOwners().isEmpty) == false)
            return [.vaultUnavailable(needed: needsVault, status: health.status, error: health.error)]
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
            return [.vaultUnreadable(e)]
        } catch {
            return [.vaultOwnersUnreadable(reason: "\(error)")]
        }
        var r: [DoctorObservation] = []
        let have = Set(items)
        let passwordOwners = Dictionary(hosts.passwords.map { ($0.uuid, $0.name) }, uniquingKeysWith: { a, _ in a })
        let otherHosts = Dictionary(hosts.others.map { ($0.uuid, $0.name) }, uniquingKeysWith: { a, _ in a })
        let keyOwners = Dictionary(keys.map { ($0.uuid, $0.name) }, uniquingKeysWith: { a, _ in a })

        for item in items.sorted(by: { ($0.kind.rawValue, $0.owner) < ($1.kind.rawValue, $1.owner) }) {
            switch item.kind {
            case .password where passwordOwners[item.owner] == nil:
                r.append(.orphanPassword(item, databaseID: db.databaseID, host: otherHosts[item.owner]))
            case .privateKey where keyOwners[item.owner] == nil:
                r.append(.orphanPrivateKey(item, databaseID: db.databaseID))
            default:
                break
            }
        }
        for h in hosts.passwords where !have.contains(VaultItemID(kind: .password, owner: h.uuid)) {
            r.append(.missingPassword(host: h.name))
        }
        for k in keys where !have.contains(VaultItemID(kind: .privateKey, owner: k.uuid)) {
            // Importing the same key again restores the item (CredentialStore.admission).
            r.append(.missingPrivateKey(key: k.name, fingerprint: (try? KeyStore(database: db).find(uuid: k.uuid))?.fingerprint))
        }
        if r.isEmpty { r.append(.vaultConsistent(items: items.count)) }
        return r
    }
}
