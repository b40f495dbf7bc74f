// The Secret Service vault through libsecret. STUB — the API shape is the contract;
// the implementation is being written.
public import SecureMemory

/// What a vault item holds (the `kind` attribute).
public enum VaultItemKind: String, Sendable, CaseIterable {
    case password
    case privateKey = "private-key"
}

/// Where the Secret Service stands, from `VaultClient.status()`.
public enum VaultStatus: Sendable, Equatable {
    case ok
    case locked
    case noDefaultCollection
    case noService
    case noSessionBus
    case timedOut
}

public struct VaultError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case noSessionBus, noService, noDefaultCollection, locked, timedOut
        case unknownPayloadVersion
        case failed
    }
    public let kind: Kind
    /// What is wrong, one line, in a user's words.
    public let message: String
    /// What to do about it.
    public let hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}

/// One item's identity: kind + owner uuid, scoped to one database id.
public struct VaultItemID: Sendable, Hashable {
    public let kind: VaultItemKind
    public let owner: String
    public init(kind: VaultItemKind, owner: String) {
        self.kind = kind
        self.owner = owner
    }
}

public final class VaultClient: Sendable {
    /// Secret Service schema name for every hostbook item.
    public static let schemaName = "io.hostbook.Secret"

    public let databaseID: String
    /// Deadline for each call to the Secret Service, in milliseconds.
    public let timeoutMilliseconds: Int

    public init(databaseID: String, timeoutMilliseconds: Int = 5000) {
        self.databaseID = databaseID
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Reports whether the Secret Service is reachable and its default collection unlocked.
    public static func status(timeoutMilliseconds: Int = 5000) -> VaultStatus { .noService }

    /// Stores (or replaces) the secret for `id`. `label` is what keyring UIs show.
    public func store(_ secret: SecretBytes, for id: VaultItemID, label: String) throws {
        throw VaultError(.failed, "the vault is not implemented yet")
    }

    /// The secret for `id`, or nil when there is none.
    public func lookup(_ id: VaultItemID) throws -> SecretBytes? {
        throw VaultError(.failed, "the vault is not implemented yet")
    }

    /// Deletes the secret for `id`; returns false when there was none.
    @discardableResult
    public func delete(_ id: VaultItemID) throws -> Bool {
        throw VaultError(.failed, "the vault is not implemented yet")
    }

    /// Every item of this database id (for `hostbook doctor`).
    public func allItems() throws -> [VaultItemID] {
        throw VaultError(.failed, "the vault is not implemented yet")
    }
}
