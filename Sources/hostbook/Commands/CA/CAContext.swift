// What every `hostbook ca` command works with: the database's certificate authorities
// (CertificateAuthorityStore) and, for create and sign, the vault through Credentials'
// CredentialStore, which orders every write to both.
import Credentials
import HostStore
import KeyFormats

struct CAContext {
    let credentials: CredentialStore
    var database: HostDatabase { credentials.database }
    let store: CertificateAuthorityStore

    init(_ database: HostDatabase) {
        credentials = CredentialStore(database: database)
        store = CertificateAuthorityStore(database: database)
    }

    static func open(_ inv: Invocation) throws -> CAContext {
        do {
            return CAContext(try HostStoreAccess.openForWriting(inv))
        } catch {
            throw KeysFailure.database(error, "cannot open the database '\(inv.databasePath)'")
        }
    }

    /// For commands that only read: nil when there is no database yet.
    static func openForReading(_ inv: Invocation) throws -> CAContext? {
        do {
            return try HostStoreAccess.openForReading(inv).map(CAContext.init)
        } catch {
            throw KeysFailure.database(error, "cannot open the database '\(inv.databasePath)'")
        }
    }

    /// The CA called `name` from a database that must exist (exit 4 otherwise).
    static func existing(_ inv: Invocation, named name: String) throws -> (CAContext, StoredAuthority) {
        guard let ctx = try openForReading(inv) else { throw CertificateAuthorityRefusal.notFound(name) }
        return (ctx, try ctx.reading { try ctx.store.existing(name) })
    }

    /// Runs a read or write of the store, wording a database failure.
    func reading<R>(_ doing: String = "cannot read the certificate authorities", _ body: () throws -> R) throws -> R {
        do { return try body() } catch { throw KeysFailure.database(error, doing) }
    }

    /// The CA's public key line (`TYPE BASE64 NAME`), as TrustedUserCAKeys and
    /// `@cert-authority` take it.
    static func publicLine(_ ca: StoredAuthority) throws -> String {
        try ca.publicKey.line(comment: ca.name)
    }
}

/// What a CA may be called: as a key (KeyName's length), 1 to 64 characters, no space at
/// either end, no leading '-', no control character.
enum CAName {
    static func validate(_ name: String) throws {
        let hint = "Choose a name of 1 to \(KeyName.maxLength) characters, no spaces at either end, no control characters."
        guard !name.isEmpty, name.count <= KeyName.maxLength, name.first != " ", name.last != " ", !name.hasPrefix("-"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) else {
            throw CLIError.rejected("'\(name)' cannot name a certificate authority", hint: hint)
        }
    }
}
