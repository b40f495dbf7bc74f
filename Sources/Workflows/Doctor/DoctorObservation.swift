// What a doctor check saw: a finding (something wrong, with its fix) or a note (what was
// checked and found fine), as data. The program words each one and gives a finding its
// check name and severity (hostbook/Commands/Doctor/DoctorWording.swift).
import HostStore
import KeyFormats
import Vault

public enum DoctorObservation: Sendable {
    // Findings.
    /// One of the database file's findings (HostStore's DatabaseChecks).
    case database(DoctorFinding)
    /// The vault cannot be reached or is locked; `needed` when the database has secrets in it.
    case vaultUnavailable(needed: Bool, status: VaultStatus, error: VaultError?)
    /// The vault failed while its items were listed.
    case vaultUnreadable(VaultError)
    /// The database failed while the vault's owners were read.
    case vaultOwnersUnreadable(reason: String)
    /// A password item no host uses: `host` when the host exists (and uses no password).
    case orphanPassword(VaultItemID, databaseID: String, host: String?)
    /// A private-key item whose key no longer exists.
    case orphanPrivateKey(VaultItemID, databaseID: String)
    /// A host that uses a password the vault does not hold.
    case missingPassword(host: String)
    /// A key whose private key the vault does not hold (its fingerprint when readable).
    case missingPrivateKey(key: String, fingerprint: String?)
    /// A key restricted to SSHSIG namespaces that saved hosts log in with.
    case restrictedKey(RestrictedKeyInUse)
    /// A key's user certificate that has expired (`expired`) or expires within
    /// CertificateExpiryCheck.warningSeconds.
    case certificateEnds(key: String, keyID: String, serial: UInt64, end: String, expired: Bool)

    // Notes.
    case noDatabase(path: String)
    /// A healthy database; `migratesTo` the schema the next command migrates it to.
    case databaseHealthy(path: String, version: Int, migratesTo: Int?)
    /// The database that has the findings that follow.
    case databaseAt(path: String)
    /// Every vault item owned, no secret missing.
    case vaultConsistent(items: Int)
}
