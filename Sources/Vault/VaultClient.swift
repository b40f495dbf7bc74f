// The Secret Service vault through libsecret: hostbook's passwords and private keys, kept in
// the default collection under the schema `io.hostbook.Secret` with the attributes `db`
// (database id), `kind`, `owner` (a host's or key's uuid) and `generation` (which write).
// Every call has a deadline (VaultTimeout).
//
// A secret is never changed in place: replacing writes a new item, then deletes the older
// ones (VaultItemGeneration). A Secret Service may let a program change only the items it
// created itself (KeePassXC asks the user about any other), while creating and deleting
// items needs no such trust; and until the old item is deleted, the old secret is intact.
public import SecureMemory
internal import CLibSecret
import System
#if canImport(Glibc)
import Glibc
#endif

public final class VaultClient: Sendable {
    /// Secret Service schema name for every hostbook item.
    public static let schemaName = "io.hostbook.Secret"

    public let databaseID: String
    /// Deadline for each call to the Secret Service, in milliseconds.
    public let timeoutMilliseconds: Int

    /// The Secret Service is the one on the session bus ($DBUS_SESSION_BUS_ADDRESS, else
    /// $XDG_RUNTIME_DIR/bus), as for every libsecret program; with neither, hostbook's
    /// headless keyring bus when one of this user ran at the program's start
    /// (`pickSessionBusAtStartup`).
    public init(databaseID: String, timeoutMilliseconds: Int = VaultTimeout.standardMilliseconds) {
        self.databaseID = databaseID
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    // MARK: The bus

    /// Whether `pickSessionBusAtStartup` has run in this process.
    private static let picked = Lock(false)

    /// hostbook's one choice of session bus, made once at the start of the program, before
    /// any thread exists (Sources/hostbook/main.swift): with no DBUS_SESSION_BUS_ADDRESS and
    /// no $XDG_RUNTIME_DIR/bus, hostbook's headless keyring bus when one of this user listens
    /// (HeadlessBus: a socket of this user in hostbook's private folder, no link followed).
    /// libsecret always uses the process's session bus, so the choice is
    /// DBUS_SESSION_BUS_ADDRESS, for this process and the children it starts (the standing
    /// agent reads its secrets through the same bus). setenv races with every getenv of
    /// other threads (glibc), so it happens here only: later calls change nothing and
    /// return false.
    @discardableResult
    public static func pickSessionBusAtStartup() -> Bool {
        picked.withLock { picked in
            guard !picked else { return false }
            picked = true
            if let address = HeadlessBus.addressForClients(environment: processEnvironment()) {
                setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
            }
            return true
        }
    }

    /// The headless bus's address when it is the session bus this process uses, else nil
    /// (for `hostbook vault status`).
    public static func headlessBusInUse() -> String? {
        let environment = processEnvironment()
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"],
              HeadlessBus.isHeadless(address: address, environment: environment) else { return nil }
        return address
    }

    /// The variables the choice reads, from this process's environment.
    private static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// Reports whether the Secret Service is reachable and its default collection unlocked.
    public static func status(timeoutMilliseconds: Int = VaultTimeout.standardMilliseconds) -> VaultStatus {
        health(timeoutMilliseconds: timeoutMilliseconds).status
    }

    /// The status with what `hostbook vault status` shows: the service, the default
    /// collection, and when something is wrong, what and what to do.
    public static func health(timeoutMilliseconds: Int = VaultTimeout.standardMilliseconds) -> VaultHealth {
        let deadline: Deadline
        do { deadline = try Deadline(milliseconds: timeoutMilliseconds) } catch {
            return VaultHealth(status: VaultStatus(error.kind), service: nil, collection: nil, label: nil, error: error)
        }
        do {
            let connection = try ServiceConnection(deadline: deadline)
            let collection = try connection.defaultCollection()
            return VaultHealth(status: collection.locked ? .locked : .ok, service: connection.program?.name,
                               collection: collection.name, label: collection.label,
                               error: collection.locked ? .locked(connection.program) : nil)
        } catch {
            // hostbook's own keyring, stopped by `vault lock`: the shell still names its bus
            // (from `eval "$(hostbook vault unlock)"`), where nothing answers now. The login
            // keyring is on disk, encrypted: locked, not a bus to fix.
            if error.kind == .noSessionBus, headlessBusInUse() != nil {
                return VaultHealth(status: .locked, service: nil, collection: nil, label: nil, error: .headlessKeyringStopped())
            }
            // The program is known as soon as the bus has said who owns the name, even if it
            // then never answered.
            return VaultHealth(status: VaultStatus(error.kind), service: deadline.service?.name, collection: nil, label: nil,
                               error: error)
        }
    }

    /// Locks the default collection of the session's Secret Service (`hostbook vault lock`
    /// where a desktop keyring answers).
    public static func lockDefaultCollection(timeoutMilliseconds: Int = VaultTimeout.standardMilliseconds) throws(VaultError) {
        let connection = try ServiceConnection(deadline: try Deadline(milliseconds: timeoutMilliseconds))
        try connection.lockDefaultCollection()
    }

    /// Stores (or replaces) the secret for `id`. `label` is what keyring UIs show.
    /// A replace writes the new item before it deletes the old one; if that delete fails the
    /// old item stays behind, never read again (the newest wins) and deleted by the next
    /// store or delete of `id`.
    public func store(_ secret: SecretBytes, for id: VaultItemID, label: String) throws {
        try storePayload(SecretPayload.encode(secret), for: id, label: label)
    }

    /// Writes the secret for `id` as a new item and keeps any older one: see StagedSecret.
    public func stage(_ secret: SecretBytes, for id: VaultItemID, label: String) throws -> StagedSecret {
        try stagePayload(SecretPayload.encode(secret), for: id, label: label)
    }

    /// Makes a staged secret the only one: deletes the older items of its id.
    public func commit(_ staged: StagedSecret) throws {
        let connection = try ServiceConnection(deadline: try Deadline(milliseconds: timeoutMilliseconds))
        _ = try connection.unlockedDefaultCollection()
        let found = try FoundItems(connection, .item(staged.id, databaseID: databaseID), doing: "find the old secret")
        for item in found.items where !item.locked && (item.generation.map { $0 < staged.generation } ?? true) {
            try deleteItem(item, connection, doing: "delete the old secret")
        }
    }

    /// Takes a staged secret back: deletes its item, and leaves the older ones as they were.
    public func discard(_ staged: StagedSecret) throws {
        let connection = try ServiceConnection(deadline: try Deadline(milliseconds: timeoutMilliseconds))
        _ = try connection.unlockedDefaultCollection()
        let attributes = AttributeTable.item(staged.id, databaseID: databaseID, generation: staged.generation)
        for item in try FoundItems(connection, attributes, doing: "find the new secret").items where !item.locked {
            try deleteItem(item, connection, doing: "delete the new secret")
        }
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

    /// Deletes the secret for `id` (every item of it); returns false when there was none.
    @discardableResult
    public func delete(_ id: VaultItemID) throws -> Bool {
        let connection = try ServiceConnection(deadline: try Deadline(milliseconds: timeoutMilliseconds))
        // Items of a locked collection cannot be deleted (nor, by some services, even seen):
        // "nothing there" would be a lie.
        _ = try connection.unlockedDefaultCollection()
        let found = try FoundItems(connection, .item(id, databaseID: databaseID), doing: "find the secret")
        var deleted = false
        for item in found.items where !item.locked {
            try deleteItem(item, connection, doing: "delete the secret")
            deleted = true
        }
        return deleted
    }

    /// Every item of this database id, each once (for `hostbook doctor`).
    public func allItems() throws -> [VaultItemID] {
        let connection = try ServiceConnection(deadline: try Deadline(milliseconds: timeoutMilliseconds))
        let found = try FoundItems(connection, .database(databaseID), doing: "list the vault items")
        var seen = Set<VaultItemID>()
        return found.items.compactMap(\.id).filter { seen.insert($0).inserted }
    }

    // MARK: Payload bytes

    /// The raw payload (version byte included) of the newest item for `id`, copied into
    /// secure memory; libsecret's copy is wiped before it is released.
    func lookupPayload(_ id: VaultItemID) throws(VaultError) -> SecretBytes? {
        let deadline = try Deadline(milliseconds: timeoutMilliseconds)
        let connection = try ServiceConnection(deadline: deadline)
        _ = try connection.unlockedDefaultCollection()
        let found = try FoundItems(connection, .item(id, databaseID: databaseID), doing: "look up the secret")
        guard let item = found.newest else { return nil }
        var error: UnsafeMutablePointer<GError>?
        guard LibSecret.secret_item_load_secret_sync(item.pointer, connection.cancellable, &error) != 0,
              let value = LibSecret.secret_item_get_secret(item.pointer) else {
            throw vaultError(from: error, deadline: deadline, doing: "read the secret")
        }
        defer { LibSecret.secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length: gsize = 0
        guard let bytes = LibSecret.secret_value_get(value, &length) else { return SecretBytes(count: 0) }
        let payload = SecretBytes(copying: UnsafeRawBufferPointer(start: bytes, count: Int(length)))
        Sodium.wipe(UnsafeMutableRawPointer(mutating: bytes), count: Int(length))
        return payload
    }

    /// Stores `payload` exactly (the version byte is the caller's; tests write unknown versions).
    func storePayload(_ payload: SecretBytes, for id: VaultItemID, label: String) throws(VaultError) {
        let staged = try stagePayload(payload, for: id, label: label)
        // The new secret is in place and is what every lookup reads; an old item that cannot
        // be deleted now is deleted by the next write or delete.
        try? commit(staged)
    }

    func stagePayload(_ payload: SecretBytes, for id: VaultItemID, label: String) throws(VaultError) -> StagedSecret {
        let deadline = try Deadline(milliseconds: timeoutMilliseconds)
        let connection = try ServiceConnection(deadline: deadline)
        let collection = try connection.unlockedDefaultCollection()
        // secret_value_new copies into libsecret's non-pageable memory, wiped when freed.
        // The content type is a formality: gnome-keyring does not keep it.
        let value = payload.withUnsafeBytes { bytes in
            LibSecret.secret_value_new(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gssize(bytes.count),
                             "application/octet-stream")
        }
        defer { LibSecret.secret_value_unref(UnsafeMutableRawPointer(value)) }
        // A generation no item has yet: libsecret's "replace an item with the same attributes"
        // never applies, so no existing item is touched.
        let generation = VaultItemGeneration.next()
        let attributes = AttributeTable.item(id, databaseID: databaseID, generation: generation)
        var error: UnsafeMutablePointer<GError>?
        guard LibSecret.secret_service_store_sync(connection.service, nil, attributes.table, collection.path, label, value,
                                        connection.cancellable, &error) != 0 else {
            throw vaultError(from: error, deadline: deadline, doing: "store the secret")
        }
        return StagedSecret(id: id, generation: generation)
    }

    private func deleteItem(_ item: FoundItems.Item, _ connection: ServiceConnection, doing action: String) throws(VaultError) {
        var error: UnsafeMutablePointer<GError>?
        guard LibSecret.secret_item_delete_sync(item.pointer, connection.cancellable, &error) != 0 else {
            throw vaultError(from: error, deadline: connection.deadline, doing: action)
        }
    }
}
