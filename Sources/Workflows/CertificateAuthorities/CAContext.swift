// What every `hostbook ca` command works with: the database's certificate authorities
// (CertificateAuthorityStore) and, for create and sign, the vault through Credentials'
// CredentialStore, which orders every write to both; over the command's workspace.
import Credentials
import HostStore
import KeyFormats

public struct CAContext {
    public let credentials: CredentialStore
    public var database: HostDatabase { credentials.database }
    public let store: CertificateAuthorityStore

    public init(_ database: HostDatabase) {
        credentials = CredentialStore(database: database)
        store = CertificateAuthorityStore(database: database)
    }

    public static func open(_ workspace: Workspace) throws -> CAContext {
        CAContext(try KeysRefusal.database(.open(path: workspace.databasePath)) { try workspace.database() })
    }

    /// For commands that only read: nil when there is no database yet.
    public static func openForReading(_ workspace: Workspace) throws -> CAContext? {
        try KeysRefusal.database(.open(path: workspace.databasePath)) { try workspace.existingDatabase() }.map(CAContext.init)
    }

    /// The CA called `name` from a database that must exist (not found otherwise).
    public static func existing(_ workspace: Workspace, named name: String) throws -> (CAContext, StoredAuthority) {
        guard let ctx = try openForReading(workspace) else { throw CertificateAuthorityRefusal.notFound(name) }
        return (ctx, try ctx.reading { try ctx.store.existing(name) })
    }

    /// Runs a read or write of the store, a database failure becoming `.database(_, step)`.
    public func reading<R>(_ step: KeysRefusal.DatabaseStep = .readAuthorities, _ body: () throws -> R) throws -> R {
        try KeysRefusal.database(step, body)
    }

    /// The CA's public key line (`TYPE BASE64 NAME`), as TrustedUserCAKeys and
    /// `@cert-authority` take it.
    public static func publicLine(_ ca: StoredAuthority) throws -> String {
        try ca.publicKey.line(comment: ca.name)
    }
}

/// What a CA may be called: as a key (KeyName's length), 1 to 64 characters, no space at
/// either end, no leading '-', no control character.
public enum CAName {
    public static func validate(_ name: String) throws(KeysRefusal) {
        if KeyName.problem(name) != nil { throw KeysRefusal.badAuthorityName(name) }
    }
}
