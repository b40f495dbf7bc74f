// `hostbook vault unlock` without a desktop: the running headless keyring when it is
// unlocked, else one started with the passphrase (HeadlessKeyring.swift says why a locked
// one is started again). A wrong passphrase, or any failure, leaves nothing running.
#if canImport(Glibc)
import Glibc
#endif
import System
public import SecureMemory

public struct HeadlessUnlock: Sendable {
    public let keyring: HeadlessKeyring
    /// True when gnome-keyring-daemon was started now (with the passphrase); false when an
    /// unlocked one was running already.
    public let startedDaemon: Bool
    /// True when the bus was started now.
    public let startedBus: Bool
}

extension HeadlessKeyring {
    /// The unlocked headless keyring. `passphrase` is asked only when a daemon must be
    /// started; its errors are thrown as they are.
    public static func unlock(environment: [String: String], passphrase: () throws -> SecretBytes) throws -> HeadlessUnlock {
        let socket = try HeadlessBus.preparedSocketPath(environment: environment)
        let address = HeadlessBus.address(ofSocket: socket)
        // One unlock or lock at a time: two logins that start a bus at once would each
        // take the socket's path from the other.
        let serial = try serialize(socket)
        defer { withExtendedLifetime(serial) {} }
        var running: HeadlessKeyring?
        if let busPID = busProcess(at: socket) {
            let state = state(socket: socket, busPID: busPID, try PrivateBusConnection(address: address))
            if state.isUnlocked { return HeadlessUnlock(keyring: state, startedDaemon: false, startedBus: false) }
            running = state
        }
        // The daemon as it is before the prompt (which may take minutes): only that process
        // is stopped after it, not one that took its pid meanwhile.
        let oldDaemon = running?.daemonPID.flatMap { pid in ProcessState.startTime(pid).map { (pid, $0) } }
        // Asked before anything is stopped or started: a prompt that fails changes nothing.
        let secret = try passphrase()
        let busPID: pid_t
        if let running {
            busPID = running.busPID
        } else {
            try removeStaleSocket(socket)
            busPID = try HeadlessProcesses.startBus(socket: socket, environment: environment)
            FaultStep.unlockBusStarted.reached()
        }
        do {
            if let (old, startedAt) = oldDaemon { try stopDaemon(old, startedAt: startedAt, address: address) }
            let bus = try PrivateBusConnection(address: address)
            let daemon = try HeadlessProcesses.startKeyring(address: address, environment: environment, passphrase: secret)
            FaultStep.unlockDaemonStarted.reached()
            let state = try waitUntilReady(daemon, socket: socket, busPID: busPID, bus)
            guard state.locked == false else { throw VaultError.wrongPassphrase() }
            return HeadlessUnlock(keyring: state, startedDaemon: true, startedBus: running == nil)
        } catch {
            stopAll(socket: socket, busPID: busPID, address: address)
            throw error
        }
    }

    /// Polls until `daemon` owns org.freedesktop.secrets and the `default` alias names a
    /// collection.
    private static func waitUntilReady(_ daemon: pid_t, socket: String, busPID: pid_t,
                                       _ bus: PrivateBusConnection) throws(VaultError) -> HeadlessKeyring {
        try waitUntilOwned(daemon, bus)
        return state(socket: socket, busPID: busPID, bus)
    }

    /// Polls until `daemon` owns org.freedesktop.secrets on `bus` and the `default` alias
    /// names a collection (before that a client call could start a second daemon, or find none).
    static func waitUntilOwned(_ daemon: pid_t, _ bus: PrivateBusConnection) throws(VaultError) {
        for _ in 0..<HeadlessProcesses.readyPolls {
            if let ended = WaitStatus.ifEnded(daemon) {
                throw VaultError(.failed, "gnome-keyring-daemon ended as it started (status \(ended.exitCode))",
                                 hint: "Run 'gnome-keyring-daemon --unlock --components=secrets --foreground' to see why.")
            }
            if bus.secretsHasOwner() == true, bus.secretsOwnerPID() == daemon, bus.defaultCollectionPath() != nil {
                return
            }
            usleep(10_000)
        }
        throw VaultError(.timedOut, "gnome-keyring-daemon did not offer the login keyring within 10 s",
                         remedy: .lockThenUnlock)
    }

    /// Stops the daemon and waits until its bus name is free, so that the new one gets it.
    static func stopDaemon(_ pid: pid_t, startedAt: UInt64? = nil, address: String) throws(VaultError) {
        HeadlessProcesses.stop(pid, expecting: "gnome-keyring-daemon", startedAt: startedAt)
        let bus = try PrivateBusConnection(address: address)
        for _ in 0..<HeadlessProcesses.readyPolls where bus.secretsHasOwner() == true { usleep(10_000) }
    }

    /// Stops the daemon on the bus (whoever owns the name there) and the bus, and removes
    /// the socket.
    static func stopAll(socket: String, busPID: pid_t, address: String) {
        if let bus = try? PrivateBusConnection(address: address), bus.secretsHasOwner() == true,
           let owner = bus.secretsOwnerPID() {
            HeadlessProcesses.stop(owner, expecting: "gnome-keyring-daemon")
        }
        HeadlessProcesses.stop(busPID, expecting: "dbus-daemon")
        try? removeStaleSocket(socket)
    }

    /// Waits for the lock beside the socket (`bus.lock`), held until the result is released.
    static func serialize(_ socket: String) throws(VaultError) -> FileLock {
        do { return try FileLock(path: socket + ".lock") } catch {
            throw VaultError(.failed, "cannot lock \(socket).lock: \(error)",
                             hint: "Check the permissions of the folder named, then try again.")
        }
    }

    /// A socket file of this user that nothing answers at is removed; anything else there is
    /// refused.
    static func removeStaleSocket(_ socket: String) throws(VaultError) {
        var info = stat()
        guard lstat(socket, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else {
            throw VaultError(.failed, "\(socket) exists and is not hostbook's keyring bus",
                             remedy: .removeThenUnlock)
        }
        _ = unlink(socket)
    }
}
