// A secret written to the vault as a new item, next to any older one of the same id, that is
// not yet the only one: `VaultClient.commit` deletes the older items, `VaultClient.discard`
// deletes this one again. Callers that write the database in between keep the two-store
// guarantees (docs/architecture.md, "Layers"): until the commit the old secret is still there,
// so a failed database write loses nothing, and at no moment does a row point at no item.

public struct StagedSecret: Sendable {
    public let id: VaultItemID
    let generation: VaultItemGeneration
}
