// Why a keys or certificate-authority workflow refused or failed: the raw names, paths and
// reasons, no wording. The executable words each case (KeysRefusal+Presentation) and gives
// its exit code.
import HostStore
import KeyFormats
import System
import Vault

public enum KeysRefusal: Error {
    /// Where a key is read from: a file, or standard input.
    public enum Source: Sendable, Equatable {
        case file(String)
        case standardInput

        public init(path: String) { self = path == "-" ? .standardInput : .file(path) }
    }

    /// What was being done when the database failed.
    public enum DatabaseStep: Sendable, Equatable {
        case open(path: String)
        case readKeys
        case saveKeys
        case saveTokenKeys
        case readAuthorities
        case recordCertificate
        case recordRevocation
        case changeKey(String)
        case attachCertificate
        case removeCertificate
    }

    /// What was being done when the vault failed.
    public enum VaultStep: Sendable, Equatable {
        /// Reading a key's private half to sign or to log in with.
        case readPrivateKey(key: String)
        /// Reading it to write it out (`keys export`).
        case exportPrivateKey(key: String)
        /// Reading a certificate authority's private key.
        case readAuthorityKey(authority: String)
    }

    /// What makes a key name unusable.
    public enum NameProblem: Sendable, Equatable {
        case empty, tooLong, spaceOrDash, controlCharacter
    }

    case database(HostStoreError, DatabaseStep)
    case vault(VaultError, VaultStep)
    case keyNotFound(String)
    case keyNameTaken(String)

    // Certificates of keys.
    case certificateRefused(KeyCertificateRefusal, file: String, key: String, fingerprint: String)
    case noCertificate(String)

    // Deploying a key (`keys deploy`).
    case keyOnlySigns(String, namespaces: [String])
    case deployLoginFailed(host: String, target: String, byPassword: Bool)
    case deployAppendFailed(host: String, status: Int32)
    case deployVerifyFailed(key: String, host: String)

    // Key files.
    case unreadable(path: String, reason: String)
    case standardInputUnreadable
    case isAFolder(path: String)
    case notAPublicKey(path: String, reason: String)
    case certificateNotPublicKey(path: String)
    case keyFileTooLarge(path: String)
    case outputExists(path: String)
    case notWritten(reason: String)

    // Key names.
    case badKeyName(String, NameProblem, option: String)

    // A key's private half.
    case keyInUpstreamAgent(String)
    case keyNotHeld(String, KeyLocation)
    case privateKeyMissing(String)
    case privateKeyDamaged(String, reason: String)
    case privateKeyMismatch(String, fingerprint: String)

    // Certificate files.
    case certificateUnreadable(path: String, reason: String)
    case notACertificate(path: String, reason: String)
    case publicKeyNotCertificate(path: String)

    // Importing and generating keys.
    case incorrectPassphrase(Source)
    case passphraseRequired(Source)
    case cannotImport(Source, reason: String)
    case publicKeyNotPrivate(Source)
    case emptyKeyFile(Source)
    case unknownKeyFormat(Source)
    case cannotGenerate(reason: String)
    case noKeyInAgent(socket: String, fingerprint: String)
    case nameNeedsOneKey(listed: Int)

    // Certificate authorities.
    case badAuthorityName(String)
    case authorityKeyMissing(String)
    case authorityKeyDamaged(String, reason: String)
    case cannotCertify(reason: String)
    case certificateNotWritten(authority: String, serial: UInt64, path: String, AtomicFile.Failure)
    case revocationListNotWritten(path: String, AtomicFile.Failure)

    // Certificate validity (`ca sign`).
    case validFromNotATime(String)
    case validToNotATime(String)
    case validNotADuration(String)
    case validOutOfBounds(String)
    case validityMissing
    case validAndValidTo
    case expiresBeforeValid
    case windowOutOfBounds

    /// Runs `body`, a database failure becoming `.database(_, step)` (other errors pass through).
    public static func database<R>(_ step: DatabaseStep, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as HostStoreError where e.kind == .database {
            throw KeysRefusal.database(e, step)
        }
    }

    /// Runs `body`, a vault failure becoming `.vault(_, step)` (other errors pass through).
    public static func vault<R>(_ step: VaultStep, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as VaultError {
            throw KeysRefusal.vault(e, step)
        }
    }
}
