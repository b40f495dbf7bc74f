// hostbook's headless keyring: on a machine with no desktop session (a login over SSH, a
// server), a private D-Bus session bus (HeadlessBus) with the user's own
// gnome-keyring-daemon on it, started by `hostbook vault unlock` and stopped by
// `hostbook vault lock`. What runs is found from the bus itself (the socket's peer and the
// owner of org.freedesktop.secrets), never from a pid file that could go stale.
//
// The lifecycle (one design, documented in docs/vault.md, "hostbook over SSH (no desktop)"):
// - `unlock` starts the bus if none answers, then gnome-keyring-daemon with the passphrase
//   on its stdin (HeadlessProcesses); a keyring that runs unlocked is used as it is, with
//   no passphrase asked. gnome-keyring 42 offers no way to unlock a running daemon's login
//   keyring without a desktop: the Secret Service's Unlock shows a GUI prompt, and
//   `gnome-keyring-daemon --unlock` against the running daemon (its control socket) left the
//   keyring locked on Debian 12. So a locked one is stopped and started again with the
//   passphrase, which is also what `lock` then `unlock` does.
// - `lock` stops both: the login keyring stays on disk, encrypted by gnome-keyring, and the
//   next `unlock` starts afresh.
// - A wrong passphrase leaves nothing running.
#if canImport(Glibc)
import Glibc
#endif
import System

public struct HeadlessKeyring: Sendable, Equatable {
    /// The bus's socket.
    public let socket: String
    /// The dbus-daemon that listens there.
    public let busPID: pid_t
    /// The process that owns org.freedesktop.secrets on the bus; nil when nothing does.
    public let daemonPID: pid_t?
    /// Whether the default collection is locked; nil when there is none (or no answer).
    public let locked: Bool?

    /// The bus's D-Bus address, for DBUS_SESSION_BUS_ADDRESS.
    public var address: String { HeadlessBus.address(ofSocket: socket) }

    /// True when a client may use it now.
    public var isUnlocked: Bool { daemonPID != nil && locked == false }

    /// What runs at this user's headless bus now; nil when no bus of this user answers there.
    public static func find(environment: [String: String]) -> HeadlessKeyring? {
        guard let socket = HeadlessBus.existingSocket(environment: environment) else { return nil }
        return find(socket: socket)
    }

    static func find(socket: String) -> HeadlessKeyring? {
        guard let busPID = busProcess(at: socket),
              let bus = try? PrivateBusConnection(address: HeadlessBus.address(ofSocket: socket)) else { return nil }
        return state(socket: socket, busPID: busPID, bus)
    }

    static func state(socket: String, busPID: pid_t, _ bus: PrivateBusConnection) -> HeadlessKeyring {
        let owner = bus.secretsHasOwner() == true ? bus.secretsOwnerPID() : nil
        let locked = owner == nil ? nil : bus.defaultCollectionPath().flatMap { bus.isLocked(collection: $0) }
        return HeadlessKeyring(socket: socket, busPID: busPID, daemonPID: owner, locked: locked)
    }

    /// The pid of what answers at `socket`, when it is a process of this user.
    static func busProcess(at socket: String) -> pid_t? {
        guard let fd = try? UnixSocket.connect(to: socket) else { return nil }
        defer { close(fd) }
        guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else { return nil }
        return peer.pid
    }
}

extension HeadlessKeyring {
    /// True when gnome-keyring has made the login keyring already
    /// (`$XDG_DATA_HOME/keyrings/login.keyring`, default ~/.local/share): the first
    /// `vault unlock` creates it with the passphrase it is given.
    public static func loginKeyringExists(environment: [String: String]) -> Bool {
        guard let folder = keyringsFolder(environment) else { return false }
        var info = stat()
        return stat(folder + "/login.keyring", &info) == 0
    }

    /// The note beside the login keyring that `vault unlock` made it (so the passphrase is
    /// the one given to hostbook, not the desktop's login password); gnome-keyring reads only
    /// `*.keyring` files there.
    static let madeByHostbookNote = ".login.keyring.made-by-hostbook"

    /// True when the login keyring was made by `hostbook vault unlock` (`recordLoginKeyringMade`),
    /// false when something else made it (a desktop session, with the login password).
    public static func loginKeyringMadeByHostbook(environment: [String: String]) -> Bool {
        guard let folder = keyringsFolder(environment) else { return false }
        var info = stat()
        return lstat(folder + "/" + madeByHostbookNote, &info) == 0
    }

    /// Notes that `vault unlock` has just made the login keyring (best effort: without the
    /// note, a wrong passphrase's hint speaks of a desktop's keyring).
    public static func recordLoginKeyringMade(environment: [String: String]) {
        guard let folder = keyringsFolder(environment) else { return }
        try? AtomicFile.write(folder + "/" + madeByHostbookNote, bytes: Array("made by 'hostbook vault unlock'\n".utf8),
                              mode: 0o600, replace: true)
    }

    /// `$XDG_DATA_HOME/keyrings` (default ~/.local/share/keyrings), where gnome-keyring keeps
    /// its keyrings; nil without HOME.
    private static func keyringsFolder(_ environment: [String: String]) -> String? {
        if let given = environment["XDG_DATA_HOME"], given.hasPrefix("/") { return given + "/keyrings" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/share/keyrings" }
        return nil
    }
}
