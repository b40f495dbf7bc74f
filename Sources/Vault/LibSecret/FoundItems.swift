// The items a search found, with the attributes hostbook reads from them. Searching asks
// for no secret, so no Secret Service shows a dialog for it.
internal import CLibSecret

struct FoundItems {
    /// One item; it holds its own reference, so it outlives the list it came in.
    final class Item {
        let pointer: UnsafeMutablePointer<SecretItem>
        let id: VaultItemID?
        let generation: VaultItemGeneration?
        let locked: Bool

        init(_ pointer: UnsafeMutablePointer<SecretItem>, id: VaultItemID?, generation: VaultItemGeneration?, locked: Bool) {
            self.pointer = pointer
            self.id = id
            self.generation = generation
            self.locked = locked
            _ = LibSecret.g_object_ref(pointer)
        }

        deinit { LibSecret.g_object_unref(pointer) }
    }

    let items: [Item]

    /// Every item, in any collection, locked or not, that has all of `attributes`.
    init(_ connection: ServiceConnection, _ attributes: AttributeTable, doing action: String) throws(VaultError) {
        var error: UnsafeMutablePointer<GError>?
        let deadline = connection.deadline
        let found = LibSecret.secret_service_search_sync(connection.service, nil, attributes.table, SECRET_SEARCH_ALL,
                                               connection.cancellable, &error)
        if found == nil, error != nil || deadline.expired {
            throw vaultError(from: error, deadline: deadline, doing: action)
        }
        defer { LibSecret.g_list_free_full(found, LibSecret.g_object_unref) }
        var items: [Item] = []
        var node = found
        while let current = node {
            let item = current.pointee.data.assumingMemoryBound(to: SecretItem.self)
            var id: VaultItemID?
            var generation: VaultItemGeneration?
            if let table = LibSecret.secret_item_get_attributes(item) {
                if let kindName = attribute(table, "kind"), let kind = VaultItemKind(rawValue: kindName),
                   let owner = attribute(table, "owner") {
                    id = VaultItemID(kind: kind, owner: owner)
                }
                generation = attribute(table, VaultItemGeneration.attribute).map(VaultItemGeneration.init(value:))
                LibSecret.g_hash_table_unref(table)
            }
            items.append(Item(item, id: id, generation: generation, locked: LibSecret.secret_item_get_locked(item) != 0))
            node = current.pointee.next
        }
        self.items = items
    }

    /// The unlocked item holding the secret: the newest generation (one without is oldest).
    var newest: Item? {
        items.filter { !$0.locked }.max { ($0.generation?.value ?? "") < ($1.generation?.value ?? "") }
    }
}
