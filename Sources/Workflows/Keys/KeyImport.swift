// `keys import`'s work: a private key file (OpenSSH, PEM, PKCS#8, PuTTY) read into secure
// memory, decrypted with the passphrase its caller gives or asks for (KeyImportAsker),
// stored (the vault item, then the row: CredentialStore), its comment taken from PATH.pub
// when the format keeps none, and the certificate PATH-cert.pub beside it attached when it
// certifies the key.
import Credentials
import HostStore
import KeyFormats
import SecureMemory

/// What importing an encrypted key asks of whoever runs it.
public protocol KeyImportAsker {
    /// The passphrase given ahead (standard input, a file), nil when none was given.
    func givenPassphrase() throws -> SecretBytes?
    /// The passphrase asked for `source`: `attempt` 1, 2, 3 (a later one follows an
    /// incorrect passphrase); throws when nobody can be asked.
    func askPassphrase(for source: KeysRefusal.Source, attempt: Int) throws -> SecretBytes
    /// Told before decrypting a file whose bcrypt rounds take a while (more than 1000).
    func slowDecryption(of source: KeysRefusal.Source, rounds: Int)
    /// Runs a decryption with `rounds` bcrypt rounds (KeyImport.progressRounds or more).
    func decrypting(rounds: Int, _ body: () throws -> ImportedPrivateKey) throws -> ImportedPrivateKey
}

public enum KeyImport {
    public static let maxPromptAttempts = 3
    /// From this many bcrypt rounds on (about 0.2 s; OpenSSH writes 16 or 24) decrypting shows progress.
    public static let progressRounds = 64

    public struct Result {
        /// The key as stored (with its certificate when one was attached).
        public let key: StoredKey
        /// The key was stored already, and only its missing vault item was written again.
        public let restored: Bool
        /// The certificate attached from PATH-cert.pub.
        public let certificate: Certificate?
        /// A PATH-cert.pub that was not attached, and why (KeyCertificateRefusal, KeysRefusal,
        /// or a database error); the key stays imported.
        public let certificateNotAttached: (file: String, error: any Error)?
        /// The key lives on a FIDO security key (the vault holds its handle).
        public let needsSecurityKey: Bool
    }

    /// Imports the key at `path` (`-`: standard input) as `name`, checked already
    /// (KeyName). A taken name or stored key is refused before any passphrase is asked.
    public static func run(path: String, name: String, workspace: Workspace, asker: some KeyImportAsker) throws -> Result {
        let source = KeysRefusal.Source(path: path)
        let bytes = try KeyFiles.read(path)
        guard PrivateKeyFile.detect(bytes) != nil else { throw notAKey(bytes, source) }
        // The file's structure is read once; a damaged one is reported after the name check.
        let opened = Swift.Result { try PrivateKeyEnvelope.open(bytes) }

        let ctx = try KeysContext.open(workspace)
        // Refuse a taken name (and, where the file shows its public key, a stored key)
        // before asking for a passphrase.
        _ = try ctx.credentials.admission(name: name, publicKey: try? opened.get().publicKey)

        let envelope: PrivateKeyEnvelope
        do { envelope = try opened.get() } catch let e as KeyFormatError { throw failure(e, source) }
        let imported = try decode(envelope, source: source, asker)
        var key = imported.key
        // PEM and PKCS#8 have no comment: ssh-keygen keeps it in PATH.pub beside them.
        if key.comment.isEmpty, path != "-", let comment = CompanionPublicKey.comment(beside: path, for: key.publicKey) {
            key.comment = comment
        }
        let result = try ctx.credentials.store(key, name: name, format: imported.format.rawValue)
        var stored = result.key
        var certificate: Certificate?
        var notAttached: (file: String, error: any Error)?
        // ssh-keygen -s writes a key's certificate as PATH-cert.pub beside it.
        if path != "-", let file = KeyCertificateFile.beside(path) {
            do {
                let read = try KeyCertificateFile.read(file)
                try KeyCertificates(database: ctx.database).attach(read.certificate, comment: read.comment, to: stored)
                certificate = read.certificate
                stored = (try? ctx.store.find(uuid: stored.uuid)) ?? stored
            } catch {
                notAttached = (file, error)
            }
        }
        let restored: Bool
        switch result {
        case .added: restored = false
        case .restored: restored = true
        }
        return Result(key: stored, restored: restored, certificate: certificate, certificateNotAttached: notAttached,
                      needsSecurityKey: imported.key.needsSecurityKey)
    }

    /// Parses the file, asking for the passphrase when it is encrypted. The first attempt
    /// has no passphrase: every parser checks the file's structure (and says what is wrong
    /// with it) before it reports that a passphrase is needed.
    private static func decode(_ envelope: PrivateKeyEnvelope, source: KeysRefusal.Source, _ asker: some KeyImportAsker) throws -> ImportedPrivateKey {
        let rounds = envelope.bcryptRounds
        func parse(_ passphrase: SecretBytes) throws -> ImportedPrivateKey {
            guard let rounds, rounds >= progressRounds else { return try envelope.decrypt(passphrase: passphrase) }
            return try asker.decrypting(rounds: rounds) { try envelope.decrypt(passphrase: passphrase) }
        }
        do {
            return try envelope.decrypt(passphrase: nil)
        } catch let e as KeyFormatError where e.kind == .passphraseRequired {
            // Encrypted: go on below. Any round count is read, as in OpenSSH.
            if let rounds, rounds > 1000 { asker.slowDecryption(of: source, rounds: rounds) }
        } catch let e as KeyFormatError {
            throw failure(e, source)
        }
        if let passphrase = try asker.givenPassphrase() {
            do { return try parse(passphrase) } catch let e as KeyFormatError { throw failure(e, source) }
        }
        var attempt = 1
        while true {
            let passphrase = try asker.askPassphrase(for: source, attempt: attempt)
            do {
                return try parse(passphrase)
            } catch let e as KeyFormatError where e.kind == .wrongPassphrase && attempt < maxPromptAttempts {
                attempt += 1
            } catch let e as KeyFormatError {
                throw failure(e, source)
            }
        }
    }

    /// A format error with the file named in it.
    static func failure(_ e: KeyFormatError, _ source: KeysRefusal.Source) -> KeysRefusal {
        switch e.kind {
        case .wrongPassphrase: .incorrectPassphrase(source)
        case .passphraseRequired: .passphraseRequired(source)
        case .invalid, .unsupported: .cannotImport(source, reason: e.reason)
        }
    }

    /// Not a private key. Only a file that starts like a public key line (a key type name)
    /// is copied out of secure memory, to be read as one.
    private static func notAKey(_ file: SecretBytes, _ source: KeysRefusal.Source) -> KeysRefusal {
        let looksPublic = file.withUnsafeBytes { raw in
            let head = raw.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d })
            return ["ssh-", "ecdsa-sha2-", "sk-"].contains { head.starts(with: $0.utf8) }
        }
        if looksPublic, (try? PublicKeyLine.parse(file.withUnsafeBytes { String(decoding: $0.prefix(16384), as: UTF8.self) })) != nil {
            return .publicKeyNotPrivate(source)
        }
        if file.isEmpty { return .emptyKeyFile(source) }
        return .unknownKeyFormat(source)
    }
}
