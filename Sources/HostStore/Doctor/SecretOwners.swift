// Who should own a secret in the vault, for `hostbook doctor` to compare with what the
// vault holds: hosts whose auth is `password`, and every key (its private half).

public struct SecretOwner: Sendable, Equatable {
    public let uuid: String
    public let name: String
}

extension HostDatabase {
    /// Every host (uuid, name) and whether it says a password is stored.
    public func hostSecretOwners() throws -> (passwords: [SecretOwner], others: [SecretOwner]) {
        try read {
            var passwords: [SecretOwner] = [], others: [SecretOwner] = []
            let s = try connection.prepare("SELECT uuid, name, auth FROM hosts ORDER BY name COLLATE NOCASE")
            while try s.step() {
                let o = SecretOwner(uuid: s.text(at: 0) ?? "", name: s.text(at: 1) ?? "")
                if s.text(at: 2) == HostAuth.password.rawValue { passwords.append(o) } else { others.append(o) }
            }
            return (passwords, others)
        }
    }

    /// Every key that keeps its private half (or handle) in the vault (uuid, name).
    public func keySecretOwners() throws -> [SecretOwner] {
        try read {
            // Only the keys whose location keeps a vault item (KeyLocation.hasVaultItem): a
            // token's or another agent's key has none to miss. A database before v12 (doctor
            // inspects it unmigrated) has only vault and sk keys. A certificate authority's
            // private key is a private-key item too (`hostbook ca`); a database not yet
            // migrated to version 9 has none.
            let located = try !connection.query("SELECT 1 FROM pragma_table_info('keys') WHERE name = 'location'").isEmpty
            let owning = KeyLocation.allCases.filter(\.hasVaultItem).map { "'\($0.rawValue)'" }.joined(separator: ", ")
            let filter = located ? "WHERE location IN (\(owning))" : ""
            let hasAuthorities = try connection.query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'certificate_authorities'").isEmpty == false
            return try connection.query("""
                SELECT uuid, name FROM keys \(filter)
                \(hasAuthorities ? "UNION ALL SELECT uuid, 'CA ' || name FROM certificate_authorities" : "")
                ORDER BY 2 COLLATE NOCASE
                """).map {
                SecretOwner(uuid: $0.text(0) ?? "", name: $0.text(1) ?? "")
            }
        }
    }
}
