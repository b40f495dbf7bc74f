// The Secret Service vault through libsecret: hostbook's passwords and private keys, kept in
// the default collection under the schema `io.hostbook.Secret` with the attributes `db`
// (database id), `kind` and `owner` (a host's or key's uuid). Every call has a deadline.
public import SecureMemory
internal import CLibSecret

public final class VaultClient: Sendable {
    /// Secret Service schema name for every hostbook item.
    public static let schemaName = "io.hostbook.Secret"

    public let databaseID: String
    /// Deadline for each call to the Secret Service, in milliseconds.
    public let timeoutMilliseconds: Int

    /// The Secret Service is the one on the session bus ($DBUS_SESSION_BUS_ADDRESS, else
    /// $XDG_RUNTIME_DIR/bus), as for every libsecret program.
    public init(databaseID: String, timeoutMilliseconds: Int = 5000) {
        self.databaseID = databaseID
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Reports whether the Secret Service is reachable and its default collection unlocked.
    public static func status(timeoutMilliseconds: Int = 5000) -> VaultStatus {
        health(timeoutMilliseconds: timeoutMilliseconds).status
    }

    /// The status with what `hostbook vault status` shows: the service, the default
    /// collection, and when something is wrong, what and what to do.
    public static func health(timeoutMilliseconds: Int = 5000) -> VaultHealth {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        var service: String?
        do {
            let connection = try ServiceConnection(deadline: deadline)
            service = connection.serviceProgram()
            let collection = try connection.defaultCollection()
            if collection.locked {
                return VaultHealth(status: .locked, service: service, collection: collection.label, error: .locked())
            }
            return VaultHealth(status: .ok, service: service, collection: collection.label, error: nil)
        } catch {
            return VaultHealth(status: VaultStatus(error.kind), service: service, collection: nil, error: error)
        }
    }

    /// Stores (or replaces) the secret for `id`. `label` is what keyring UIs show.
    public func store(_ secret: SecretBytes, for id: VaultItemID, label: String) throws {
        try storePayload(SecretPayload.encode(secret), for: id, label: label)
    }

    /// The secret for `id`, or nil when there is none.
    public func lookup(_ id: VaultItemID) throws -> SecretBytes? {
        guard let payload = try lookupPayload(id) else { return nil }
        do {
            return try SecretPayload.decode(payload)
        } catch .empty {
            throw VaultError.emptyPayload(item: id)
        } catch .unknownVersion(let version) {
            throw VaultError.unknownPayloadVersion(version, item: id)
        }
    }

    /// Deletes the secret for `id`; returns false when there was none.
    @discardableResult
    public func delete(_ id: VaultItemID) throws -> Bool {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        let connection = try ServiceConnection(deadline: deadline)
        // secret_service_clear only deletes unlocked items: in a locked collection it would
        // report "nothing there".
        _ = try connection.unlockedDefaultCollection()
        let attributes = AttributeTable.item(id, databaseID: databaseID)
        var error: UnsafeMutablePointer<GError>?
        let deleted = secret_service_clear_sync(connection.service, nil, attributes.table, connection.cancellable, &error)
        if deleted == 0, error != nil || deadline.expired {
            throw vaultError(from: error, deadline: deadline, doing: "delete the secret")
        }
        return deleted != 0
    }

    /// Every item of this database id (for `hostbook doctor`).
    public func allItems() throws -> [VaultItemID] {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        let connection = try ServiceConnection(deadline: deadline)
        let attributes = AttributeTable.database(databaseID)
        var error: UnsafeMutablePointer<GError>?
        let list = secret_service_search_sync(connection.service, nil, attributes.table, SECRET_SEARCH_ALL,
                                              connection.cancellable, &error)
        if list == nil, error != nil || deadline.expired {
            throw vaultError(from: error, deadline: deadline, doing: "list the vault items")
        }
        defer { g_list_free_full(list, g_object_unref) }
        var items: [VaultItemID] = []
        var node = list
        while let current = node {
            let item = current.pointee.data.assumingMemoryBound(to: SecretItem.self)
            if let table = secret_item_get_attributes(item) {
                if let kindName = attribute(table, "kind"), let kind = VaultItemKind(rawValue: kindName),
                   let owner = attribute(table, "owner") {
                    items.append(VaultItemID(kind: kind, owner: owner))
                }
                g_hash_table_unref(table)
            }
            node = current.pointee.next
        }
        return items
    }

    // MARK: Payload bytes

    /// The raw payload (version byte included), copied into secure memory; libsecret's copy
    /// is wiped before it is released.
    func lookupPayload(_ id: VaultItemID) throws -> SecretBytes? {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        let connection = try ServiceConnection(deadline: deadline)
        _ = try connection.unlockedDefaultCollection()
        let attributes = AttributeTable.item(id, databaseID: databaseID)
        var error: UnsafeMutablePointer<GError>?
        guard let value = secret_service_lookup_sync(connection.service, nil, attributes.table,
                                                     connection.cancellable, &error) else {
            if error != nil || deadline.expired {
                throw vaultError(from: error, deadline: deadline, doing: "look up the secret")
            }
            return nil
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length: gsize = 0
        guard let bytes = secret_value_get(value, &length) else { return SecretBytes(count: 0) }
        let payload = SecretBytes(copying: UnsafeRawBufferPointer(start: bytes, count: Int(length)))
        Sodium.wipe(UnsafeMutableRawPointer(mutating: bytes), count: Int(length))
        return payload
    }

    /// Stores `payload` exactly (the version byte is the caller's; tests write unknown versions).
    func storePayload(_ payload: SecretBytes, for id: VaultItemID, label: String) throws {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        let connection = try ServiceConnection(deadline: deadline)
        let collection = try connection.unlockedDefaultCollection()
        // secret_value_new copies into libsecret's non-pageable memory, wiped when freed.
        // The content type is a formality: gnome-keyring does not keep it.
        let value = payload.withUnsafeBytes { bytes in
            secret_value_new(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gssize(bytes.count),
                             "application/octet-stream")
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        let attributes = AttributeTable.item(id, databaseID: databaseID)
        var error: UnsafeMutablePointer<GError>?
        guard secret_service_store_sync(connection.service, nil, attributes.table, collection.path, label, value,
                                        connection.cancellable, &error) != 0 else {
            throw vaultError(from: error, deadline: deadline, doing: "store the secret")
        }
    }
}
