// One conversation with the Secret Service: the session bus, a fresh libsecret service proxy
// on it, and the deadline that bounds every message.
//
// libsecret's SecretService always uses the process's session bus connection (its
// constructor forces g-bus-type = session), so that is the bus used here too. A fresh proxy
// per call (secret_service_open, not the cached secret_service_get) keeps no global state
// of ours, and lets every call check the bus and the service again.
internal import CLibSecret
import Dispatch
import System
#if canImport(Glibc)
import Glibc
#endif

final class ServiceConnection {
    let deadline: Deadline
    private let connection: OpaquePointer
    let service: UnsafeMutablePointer<SecretService>
    /// The process that owns the Secret Service's bus name, when the bus says.
    private var owner: OwnerProcess?

    /// The program that answers (e.g. gnome-keyring-daemon, keepassxc), when known.
    var program: SecretServiceProgram? { deadline.service }

    var cancellable: UnsafeMutablePointer<GCancellable> { deadline.cancellable }

    /// The bus name of the Secret Service; libsecret honours $SECRET_SERVICE_BUS_NAME.
    static var busName: String {
        if let name = getenv("SECRET_SERVICE_BUS_NAME") { return String(cString: name) }
        return "org.freedesktop.secrets"
    }

    /// Connects to the session bus and makes the service proxy; throws a VaultError saying
    /// what is missing.
    init(deadline: Deadline) throws(VaultError) {
        self.deadline = deadline
        var error: UnsafeMutablePointer<GError>?
        // Finding the address first tells "no bus at all" apart from "a bus that does not answer".
        guard let address = LibSecret.g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, deadline.cancellable, &error) else {
            let reason = error.map(errorText) ?? "no address"
            if let error { LibSecret.g_error_free(error) }
            throw .noSessionBus(reason: reason)
        }
        LibSecret.g_free(address)
        guard let connection = LibSecret.g_bus_get_sync(G_BUS_TYPE_SESSION, deadline.cancellable, &error) else {
            if deadline.expired {
                if let error { LibSecret.g_error_free(error) }
                throw .timedOut(milliseconds: deadline.milliseconds, nil)
            }
            let reason = error.map(errorText) ?? "no reason given"
            if let error { LibSecret.g_error_free(error) }
            throw .sessionBusUnreachable(reason: reason)
        }
        // GLib's shared session connection would end the process if the bus went away.
        LibSecret.g_dbus_connection_set_exit_on_close(connection, 0)
        self.connection = connection
        do {
            // Without an owner, only a bus that can start the service (D-Bus activation) helps.
            if try !Self.nameHasOwner(connection, deadline: deadline),
               try !Self.activatableNames(connection, deadline: deadline).contains(Self.busName) {
                throw VaultError.noService()
            }
            // Who answers, known before the first call to it, for the words of any error.
            owner = Self.ownerProcess(connection, deadline: deadline)
            deadline.service = owner.map { SecretServiceProgram(executable: $0.executable) }
            guard let service = LibSecret.secret_service_open_sync(LibSecret.secret_service_get_type(), nil, SECRET_SERVICE_NONE,
                                                         deadline.cancellable, &error) else {
                throw vaultError(from: error, deadline: deadline, doing: "connect to the keyring")
            }
            self.service = service
        } catch {
            LibSecret.g_object_unref(UnsafeMutableRawPointer(connection))
            throw error as! VaultError
        }
    }

    deinit {
        LibSecret.g_object_unref(service)
        LibSecret.g_object_unref(UnsafeMutableRawPointer(connection))
    }

    // MARK: The bus

    /// Calls a method of the bus itself (org.freedesktop.DBus) with one string argument.
    private static func callBus(_ connection: OpaquePointer, _ method: String, _ argument: String?,
                                deadline: Deadline) throws(VaultError) -> OpaquePointer {
        var parameters: OpaquePointer?
        if let argument {
            var child: OpaquePointer? = LibSecret.g_variant_new_string(argument)
            parameters = LibSecret.g_variant_new_tuple(&child, 1)
        }
        var error: UnsafeMutablePointer<GError>?
        guard let reply = LibSecret.g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", method, parameters, nil,
                                                      G_DBUS_CALL_FLAGS_NONE, Int32(clamping: deadline.milliseconds),
                                                      deadline.cancellable, &error) else {
            throw vaultError(from: error, deadline: deadline, doing: "ask the D-Bus session bus (\(method))")
        }
        return reply
    }

    private static func nameHasOwner(_ connection: OpaquePointer, deadline: Deadline) throws(VaultError) -> Bool {
        let reply = try callBus(connection, "NameHasOwner", busName, deadline: deadline)
        defer { LibSecret.g_variant_unref(reply) }
        let value = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(value) }
        return LibSecret.g_variant_get_boolean(value) != 0
    }

    private static func activatableNames(_ connection: OpaquePointer, deadline: Deadline) throws(VaultError) -> [String] {
        let reply = try callBus(connection, "ListActivatableNames", nil, deadline: deadline)
        defer { LibSecret.g_variant_unref(reply) }
        let list = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(list) }
        var names: [String] = []
        for i in 0..<LibSecret.g_variant_n_children(list) {
            let name = LibSecret.g_variant_get_child_value(list, i)
            names.append(String(cString: LibSecret.g_variant_get_string(name, nil)!))
            LibSecret.g_variant_unref(name)
        }
        return names
    }

    struct OwnerProcess {
        let pid: UInt32
        let executable: String
    }

    /// The process that owns org.freedesktop.secrets, e.g. gnome-keyring-daemon, if the bus says.
    private static func ownerProcess(_ connection: OpaquePointer, deadline: Deadline) -> OwnerProcess? {
        guard let reply = try? callBus(connection, "GetConnectionUnixProcessID", busName, deadline: deadline) else {
            return nil
        }
        defer { LibSecret.g_variant_unref(reply) }
        let value = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(value) }
        let pid = LibSecret.g_variant_get_uint32(value)
        // A service that made itself non-dumpable (KeePassXC does) has a /proc/PID/exe only
        // root may read; ProcessChain then names it by its command line, which everyone may read.
        guard let path = ProcessChain.executable(of: Int32(bitPattern: pid)),
              let name = path.split(separator: "/").last else { return nil }
        return OwnerProcess(pid: pid, executable: String(name))
    }

    /// Seconds since the owner process started, from /proc (nil when unknown).
    private var ownerAgeSeconds: Double? {
        guard let owner,
              let stat = try? procText("/proc/\(owner.pid)/stat"), let uptime = try? procText("/proc/uptime"),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Field 22 (starttime, in clock ticks) counted from the field after the command name.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let start = Double(fields[19]),
              let now = uptime.split(separator: " ").first.flatMap({ Double($0) }) else { return nil }
        return now - start / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    // MARK: The default collection

    struct DefaultCollection {
        let path: String
        /// The collection's name in its object path (e.g. "login"; for KeePassXC the database
        /// file's name): unlike the label, the same whether it is locked or not.
        let name: String
        let label: String
        let locked: Bool
    }

    /// The collection behind the `default` alias; throws `.noDefaultCollection` when there is none.
    func defaultCollection() throws(VaultError) -> DefaultCollection {
        var error: UnsafeMutablePointer<GError>?
        guard let collection = LibSecret.secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE,
                                                                cancellable, &error) else {
            if error == nil && !deadline.expired { throw .noDefaultCollection(program) }
            throw vaultError(from: error, deadline: deadline, doing: "find the default keyring")
        }
        defer { LibSecret.g_object_unref(collection) }
        let proxy = UnsafeMutableRawPointer(collection).assumingMemoryBound(to: GDBusProxy.self)
        let path = String(cString: LibSecret.g_dbus_proxy_get_object_path(proxy)!)
        var label = ""
        if let text = LibSecret.secret_collection_get_label(collection) {
            label = String(cString: text)
            LibSecret.g_free(text)
        }
        var locked = LibSecret.secret_collection_get_locked(collection) != 0
        // KeePassXC owns the bus name before it has unlocked the database it was started with
        // (the first second or so): a KeePassXC that just started gets a moment to finish.
        if locked, program == .keepassxc, let age = ownerAgeSeconds, age < Self.startUpSeconds {
            locked = waitWhileLocked(path, until: Self.startUpSeconds - age)
            if !locked, let text = LibSecret.secret_collection_get_label(collection) {
                label = String(cString: text)
                LibSecret.g_free(text)
            }
        }
        return DefaultCollection(path: path, name: Self.collectionName(path), label: label, locked: locked)
    }

    /// How long after its start a Secret Service may still be unlocking its database.
    static let startUpSeconds = 5.0

    /// Polls the collection's Locked property (asked afresh, not libsecret's cached copy) for
    /// at most `seconds` and the deadline; the last answer.
    private func waitWhileLocked(_ path: String, until seconds: Double) -> Bool {
        let until = DispatchTime.now() + .milliseconds(Int(seconds * 1000))
        while DispatchTime.now() < until, deadline.remainingMilliseconds > 200 {
            usleep(100_000)
            var parameters: [OpaquePointer?] = [LibSecret.g_variant_new_string("org.freedesktop.Secret.Collection"),
                                                LibSecret.g_variant_new_string("Locked")]
            let tuple = LibSecret.g_variant_new_tuple(&parameters, 2)
            var error: UnsafeMutablePointer<GError>?
            guard let reply = LibSecret.g_dbus_connection_call_sync(connection, Self.busName, path, "org.freedesktop.DBus.Properties",
                                                          "Get", tuple, nil, G_DBUS_CALL_FLAGS_NONE,
                                                          Int32(clamping: deadline.remainingMilliseconds),
                                                          deadline.cancellable, &error) else {
                if let error { LibSecret.g_error_free(error) }
                return true
            }
            defer { LibSecret.g_variant_unref(reply) }
            let boxed = LibSecret.g_variant_get_child_value(reply, 0)
            defer { LibSecret.g_variant_unref(boxed) }
            let value = LibSecret.g_variant_get_variant(boxed)
            defer { LibSecret.g_variant_unref(value) }
            if LibSecret.g_variant_get_boolean(value) == 0 { return false }
        }
        return true
    }

    /// The last element of a collection's object path, with D-Bus's `_xx` escapes undone.
    static func collectionName(_ path: String) -> String {
        let last = Array((path.split(separator: "/").last.map(String.init) ?? "").utf8)
        var bytes: [UInt8] = []
        var i = 0
        while i < last.count {
            if last[i] == UInt8(ascii: "_"), i + 2 < last.count,
               let byte = UInt8(String(decoding: last[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                i += 3
            } else {
                bytes.append(last[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The default collection, which must be unlocked: a lookup in a locked collection finds
    /// nothing without an error, and a store or delete there would wait for a prompt.
    /// On a terminal someone can answer the service's unlock dialog (KeePassXC's, GNOME's
    /// prompt): hostbook asks the service to unlock and waits for it, within the deadline.
    func unlockedDefaultCollection() throws(VaultError) -> DefaultCollection {
        let collection = try defaultCollection()
        guard collection.locked else { return collection }
        if VaultTimeout.isInteractive, try requestUnlock() {
            return DefaultCollection(path: collection.path, name: collection.name, label: collection.label, locked: false)
        }
        throw .locked(program)
    }

    /// Locks the default collection (org.freedesktop.Secret.Service.Lock).
    func lockDefaultCollection() throws(VaultError) {
        try withDefaultCollectionList { objects throws(VaultError) in
            var error: UnsafeMutablePointer<GError>?
            var locked: UnsafeMutablePointer<GList>?
            let count = LibSecret.secret_service_lock_sync(service, objects, cancellable, &locked, &error)
            LibSecret.g_list_free_full(locked, LibSecret.g_object_unref)
            if count < 0 || error != nil || deadline.expired {
                throw vaultError(from: error, deadline: deadline, doing: "lock the default keyring")
            }
        }
    }

    /// Asks the service to unlock the default collection (it shows its own dialog); true
    /// when it is unlocked afterwards.
    private func requestUnlock() throws(VaultError) -> Bool {
        try withDefaultCollectionList { objects throws(VaultError) in
            var error: UnsafeMutablePointer<GError>?
            var unlocked: UnsafeMutablePointer<GList>?
            let count = LibSecret.secret_service_unlock_sync(service, objects, cancellable, &unlocked, &error)
            LibSecret.g_list_free_full(unlocked, LibSecret.g_object_unref)
            if count < 0 || error != nil || deadline.expired {
                throw vaultError(from: error, deadline: deadline, doing: "unlock the default keyring")
            }
            return count > 0
        }
    }

    /// The default collection as the one-element list that the service's Lock and Unlock
    /// calls take, alive while `body` runs.
    private func withDefaultCollectionList<T>(
        _ body: (UnsafeMutablePointer<GList>?) throws(VaultError) -> T
    ) throws(VaultError) -> T {
        var error: UnsafeMutablePointer<GError>?
        guard let collection = LibSecret.secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE,
                                                                cancellable, &error) else {
            if error == nil && !deadline.expired { throw .noDefaultCollection(program) }
            throw vaultError(from: error, deadline: deadline, doing: "find the default keyring")
        }
        defer { LibSecret.g_object_unref(collection) }
        let objects = LibSecret.g_list_append(nil, UnsafeMutableRawPointer(collection))
        defer { LibSecret.g_list_free(objects) }
        return try body(objects)
    }
}

/// A small file under /proc, whole.
private func procText(_ path: String) throws -> String {
    guard let file = fopen(path, "r") else { throw VaultError(.failed, "cannot read \(path)") }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    let count = fread(&buffer, 1, buffer.count - 1, file)
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
