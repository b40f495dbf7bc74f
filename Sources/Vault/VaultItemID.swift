// Which vault item: its kind and owner (the `kind` and `owner` attributes); the database id
// (`db`) comes from the VaultClient.

/// What a vault item holds (the `kind` attribute).
public enum VaultItemKind: String, Sendable, CaseIterable {
    case password
    case privateKey = "private-key"
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
