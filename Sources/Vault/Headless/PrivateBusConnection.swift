// A D-Bus connection of its own to one bus address (the headless keyring's bus), not the
// process's shared session bus that libsecret uses: `vault unlock` and `vault lock` ask it
// who owns the Secret Service's name and whether its default collection is locked, whatever
// bus the rest of the process uses. Every call has a timeout.
internal import CLibSecret
#if canImport(Glibc)
import Glibc
#endif

final class PrivateBusConnection {
    private let connection: OpaquePointer
    /// Milliseconds each call may take.
    let timeoutMilliseconds: Int32

    static let secretsName = "org.freedesktop.secrets"

    init(address: String, timeoutMilliseconds: Int32 = 5_000) throws(VaultError) {
        try LibSecret.requireLoaded()
        self.timeoutMilliseconds = timeoutMilliseconds
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = LibSecret.g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no reason given"
            if let error { LibSecret.g_error_free(error) }
            throw VaultError(.noSessionBus, "hostbook's keyring bus does not answer (\(reason))",
                             remedy: .lockThenUnlock)
        }
        LibSecret.g_dbus_connection_set_exit_on_close(connection, 0)
        self.connection = connection
    }

    deinit {
        _ = LibSecret.g_dbus_connection_close_sync(connection, nil, nil)
        LibSecret.g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// True when something owns org.freedesktop.secrets (nil: the bus did not answer).
    func secretsHasOwner() -> Bool? {
        guard let reply = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                               strings: [Self.secretsName]) else { return nil }
        defer { LibSecret.g_variant_unref(reply) }
        let value = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(value) }
        return LibSecret.g_variant_get_boolean(value) != 0
    }

    /// The process that owns org.freedesktop.secrets.
    func secretsOwnerPID() -> pid_t? {
        guard let reply = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "GetConnectionUnixProcessID", strings: [Self.secretsName]) else { return nil }
        defer { LibSecret.g_variant_unref(reply) }
        let value = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(value) }
        return pid_t(bitPattern: LibSecret.g_variant_get_uint32(value))
    }

    /// The object path the `default` alias names; nil when there is none yet ("/") or no answer.
    func defaultCollectionPath() -> String? {
        guard let reply = call(Self.secretsName, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "ReadAlias",
                               strings: ["default"]) else { return nil }
        defer { LibSecret.g_variant_unref(reply) }
        let value = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(value) }
        let path = String(cString: LibSecret.g_variant_get_string(value, nil)!)
        return path == "/" ? nil : path
    }

    /// The collection's Locked property, asked afresh; nil when there is no answer.
    func isLocked(collection path: String) -> Bool? {
        guard let reply = call(Self.secretsName, path, "org.freedesktop.DBus.Properties", "Get",
                               strings: ["org.freedesktop.Secret.Collection", "Locked"]) else { return nil }
        defer { LibSecret.g_variant_unref(reply) }
        let boxed = LibSecret.g_variant_get_child_value(reply, 0)
        defer { LibSecret.g_variant_unref(boxed) }
        let value = LibSecret.g_variant_get_variant(boxed)
        defer { LibSecret.g_variant_unref(value) }
        return LibSecret.g_variant_get_boolean(value) != 0
    }

    private func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
                      strings: [String]) -> OpaquePointer? {
        var children: [OpaquePointer?] = strings.map { LibSecret.g_variant_new_string($0) }
        let parameters = LibSecret.g_variant_new_tuple(&children, gsize(children.count))
        return send(destination, path, interface, method, parameters)
    }

    private func send(_ destination: String, _ path: String, _ interface: String, _ method: String,
                      _ parameters: OpaquePointer?) -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let reply = LibSecret.g_dbus_connection_call_sync(connection, destination, path, interface, method, parameters, nil,
                                                G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds, nil, &error)
        if let error { LibSecret.g_error_free(error) }
        return reply
    }
}
