// The attributes of a hostbook vault item as the GHashTable libsecret takes.
// `xdg:schema` is the attribute libsecret adds for a schema; it is set here directly so the
// schema name is written in one place (VaultClient.schemaName).
internal import CLibSecret

final class AttributeTable {
    let table: OpaquePointer

    init(_ attributes: [(String, String)]) {
        table = LibSecret.g_hash_table_new_full(LibSecret.g_str_hash, LibSecret.g_str_equal, LibSecret.g_free, LibSecret.g_free)!
        for (name, value) in attributes {
            _ = LibSecret.g_hash_table_insert(table, LibSecret.g_strdup(name), LibSecret.g_strdup(value))
        }
    }

    /// Every item of one database.
    static func database(_ databaseID: String) -> AttributeTable {
        AttributeTable([("xdg:schema", VaultClient.schemaName), ("db", databaseID)])
    }

    /// Every generation of one item (a search matches the attributes given, whatever else
    /// an item has).
    static func item(_ id: VaultItemID, databaseID: String) -> AttributeTable {
        AttributeTable([("xdg:schema", VaultClient.schemaName), ("db", databaseID),
                        ("kind", id.kind.rawValue), ("owner", id.owner)])
    }

    /// Exactly one generation of one item: what a new item is written with.
    static func item(_ id: VaultItemID, databaseID: String, generation: VaultItemGeneration) -> AttributeTable {
        AttributeTable([("xdg:schema", VaultClient.schemaName), ("db", databaseID),
                        ("kind", id.kind.rawValue), ("owner", id.owner),
                        (VaultItemGeneration.attribute, generation.value)])
    }

    deinit { LibSecret.g_hash_table_unref(table) }
}

/// Reads one attribute from a table libsecret returned.
func attribute(_ table: OpaquePointer, _ name: String) -> String? {
    guard let value = LibSecret.g_hash_table_lookup(table, name) else { return nil }
    return String(cString: value.assumingMemoryBound(to: CChar.self))
}
