// Where hostbook's headless keyring listens: a private D-Bus session bus whose socket is
// `bus` in hostbook's socket folder (PrivateSocketDirectory: `$XDG_RUNTIME_DIR/hostbook`,
// else the recorded private folder in /tmp), and when a hostbook that has no session bus
// of its own uses it (VaultClient.pickSessionBusAtStartup).
#if canImport(Glibc)
import Glibc
#endif
import System

public enum HeadlessBus {
    /// The socket's name in hostbook's folder.
    public static let socketName = "bus"

    /// The socket's path; the folder is created 0700 (or checked) first.
    public static func preparedSocketPath(environment: [String: String]) throws(VaultError) -> String {
        do {
            return try PrivateSocketDirectory.prepare(environment: environment) + "/" + socketName
        } catch {
            throw VaultError(.failed, "cannot prepare hostbook's private folder for the keyring's bus: \(error)",
                             hint: "Set XDG_RUNTIME_DIR to a folder of yours, or check the permissions of the folder named.")
        }
    }

    /// The socket of a headless bus that may be running: a socket of this user in hostbook's
    /// private folder (a real folder of this user, closed to others; links are not followed).
    /// Nothing is created; nil when there is none.
    public static func existingSocket(environment: [String: String]) -> String? {
        guard let folder = PrivateSocketDirectory.existing(environment: environment) else { return nil }
        let path = folder + "/" + socketName
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else { return nil }
        return path
    }

    /// The D-Bus address of a socket path (`unix:path=...`, escaped as the D-Bus
    /// specification's "Server Addresses" says: bytes outside [-0-9A-Za-z_/.\*] as %XX).
    public static func address(ofSocket path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-_/.\\*".contains(c) {
                escaped.append(c)
            } else {
                escaped += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return "unix:path=" + escaped
    }

    /// True when the environment names a session bus other than the headless one: a
    /// DBUS_SESSION_BUS_ADDRESS of another bus, or (without it) `$XDG_RUNTIME_DIR/bus`, the
    /// systemd user bus that libsecret would use.
    public static func namesOtherBus(environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            return !isHeadless(address: address, environment: environment)
        }
        return userBusSocket(environment: environment) != nil
    }

    /// True when `address` is the headless bus of this user.
    /// (The socket need not exist: after `vault lock` a shell may still name it.)
    public static func isHeadless(address: String, environment: [String: String]) -> Bool {
        guard let folder = PrivateSocketDirectory.existing(environment: environment) else { return false }
        return address == self.address(ofSocket: folder + "/" + socketName)
    }

    /// The headless bus to use when the environment names no session bus at all (no
    /// DBUS_SESSION_BUS_ADDRESS, no `$XDG_RUNTIME_DIR/bus`); nil otherwise.
    public static func addressForClients(environment: [String: String]) -> String? {
        guard environment["DBUS_SESSION_BUS_ADDRESS"].map({ $0.isEmpty }) ?? true,
              userBusSocket(environment: environment) == nil,
              let socket = existingSocket(environment: environment) else { return nil }
        return address(ofSocket: socket)
    }

    /// `$XDG_RUNTIME_DIR/bus` when it exists (GLib's session bus without an address).
    private static func userBusSocket(environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        var info = stat()
        return stat(path, &info) == 0 ? path : nil
    }
}
