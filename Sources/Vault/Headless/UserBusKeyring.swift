// hostbook's keyring on the user's own session bus, where there is no desktop: a login over
// SSH to a server with dbus-user-session gets `DBUS_SESSION_BUS_ADDRESS` (or
// `$XDG_RUNTIME_DIR/bus`) from systemd, and gnome-keyring's D-Bus service file
// (/usr/share/dbus-1/services/org.freedesktop.secrets.service) lets that bus start a
// gnome-keyring-daemon whose login keyring stays locked: nothing there can unlock it.
// `vault unlock` then stops that daemon (only a gnome-keyring-daemon, only without a
// graphical session: GraphicalSession) and starts the user's gnome-keyring-daemon on the
// same bus with the passphrase on its stdin, so every later login on that bus finds it.
//
// Why stop and start rather than `--replace`: on gnome-keyring 42 (Debian 12),
// `gnome-keyring-daemon --replace --unlock --foreground` asks the running daemon to quit
// through its control socket but claims org.freedesktop.secrets before that daemon has let
// it go ("another secret service is running"), and stays running without the name; the
// daemonizing form won the race in a trial, but only by timing. Stopping the owner and
// waiting until the name is free is the order that always holds.
//
// hostbook knows which daemon it started from a record in its private folder
// (`user-bus-keyring`: the daemon's pid and start time, no secret), which `vault lock` and
// `vault status` compare with the process that owns the name now.
#if canImport(Glibc)
import Glibc
#endif
import System
import SecureMemory

public enum UserBusKeyring {
    /// The record's name in hostbook's private folder.
    static let recordName = "user-bus-keyring"

    /// The session bus the environment names: DBUS_SESSION_BUS_ADDRESS, else
    /// `$XDG_RUNTIME_DIR/bus` (libsecret's choice through GLib); nil when neither.
    public static func sessionAddress(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        var info = stat()
        return stat(path, &info) == 0 ? HeadlessBus.address(ofSocket: path) : nil
    }

    /// The unlocked keyring on the session bus: the running one when its default collection
    /// is unlocked (`started` false), else a gnome-keyring-daemon started now with the
    /// passphrase in place of the locked one; nil (nothing asked or changed) when the locked
    /// one is not one hostbook may replace (`isReplaceable`). A wrong passphrase or any
    /// failure stops the daemon it started; the bus stays (it is the user's).
    public static func unlock(environment: [String: String],
                              passphrase: () throws -> SecretBytes) throws -> (daemonPID: pid_t, started: Bool)? {
        guard let address = sessionAddress(environment: environment) else {
            throw VaultError(.noSessionBus, "no D-Bus session bus is named", remedy: .unsetBusThenUnlock)
        }
        let folder = try folder(environment)
        let serial = try HeadlessKeyring.serialize(folder + "/" + recordName)
        defer { withExtendedLifetime(serial) {} }
        let bus = try PrivateBusConnection(address: address)
        var owner: (pid: pid_t, startedAt: UInt64)?
        if bus.secretsHasOwner() == true, let pid = bus.secretsOwnerPID() {
            if bus.defaultCollectionPath().flatMap({ bus.isLocked(collection: $0) }) == false {
                return (pid, false)
            }
            guard isReplaceable(pid, folder: folder, environment: environment),
                  let startedAt = ProcessState.startTime(pid) else { return nil }
            owner = (pid, startedAt)
        }
        // Asked before anything is stopped: a prompt that fails changes nothing.
        let secret = try passphrase()
        if let owner {
            // The prompt may have taken minutes: stop only the daemon checked before it, if
            // it still owns the name (same pid, same start time, still replaceable).
            guard bus.secretsOwnerPID() == owner.pid, ProcessState.startTime(owner.pid) == owner.startedAt,
                  isReplaceable(owner.pid, folder: folder, environment: environment) else {
                throw VaultError(.failed, "the keyring on the session bus changed while the passphrase was asked",
                                 remedy: .unlockAgain)
            }
            try HeadlessKeyring.stopDaemon(owner.pid, startedAt: owner.startedAt, address: address)
        }
        let daemon = try HeadlessProcesses.startKeyring(address: address, environment: environment, passphrase: secret)
        do {
            try HeadlessKeyring.waitUntilOwned(daemon, bus)
            guard bus.defaultCollectionPath().flatMap({ bus.isLocked(collection: $0) }) == false else {
                throw VaultError.wrongPassphrase()
            }
            try record(daemon, in: folder)
            return (daemon, true)
        } catch {
            HeadlessProcesses.stop(daemon, expecting: "gnome-keyring-daemon")
            _ = WaitStatus.ifEnded(daemon)
            throw error
        }
    }

    /// The daemon hostbook started on the session bus when it is what owns
    /// org.freedesktop.secrets there now; nil otherwise.
    public static func running(environment: [String: String]) -> pid_t? {
        guard let address = sessionAddress(environment: environment),
              let folder = PrivateSocketDirectory.existing(environment: environment),
              let recorded = recorded(in: folder),
              let bus = try? PrivateBusConnection(address: address),
              bus.secretsHasOwner() == true, bus.secretsOwnerPID() == recorded else { return nil }
        return recorded
    }

    /// True when `vault unlock` would unlock the session bus's keyring here: no graphical
    /// session, and org.freedesktop.secrets has no owner or one hostbook may replace.
    public static func unlockWouldReplace(environment: [String: String]) -> Bool {
        guard !GraphicalSession.isPresent(environment: environment),
              let address = sessionAddress(environment: environment),
              let bus = try? PrivateBusConnection(address: address), let owned = bus.secretsHasOwner() else { return false }
        guard owned, let pid = bus.secretsOwnerPID() else { return true }
        return isReplaceable(pid, folder: PrivateSocketDirectory.existing(environment: environment) ?? "/nonexistent", environment: environment)
    }

    /// Stops the daemon hostbook started on the session bus (the recorded pid and start time
    /// still match a gnome-keyring-daemon); returns its pid, nil when none runs. The record goes.
    @discardableResult
    public static func lock(environment: [String: String]) -> pid_t? {
        guard let folder = PrivateSocketDirectory.existing(environment: environment) else { return nil }
        let path = folder + "/" + recordName
        guard AtomicFile.exists(path) else { return nil }
        let serial = try? HeadlessKeyring.serialize(path)
        defer { withExtendedLifetime(serial) {} }
        let pid = recorded(in: folder)
        _ = unlink(path)
        guard let pid else { return nil }
        HeadlessProcesses.stop(pid, expecting: "gnome-keyring-daemon")
        return pid
    }

    /// True when `pid` is a gnome-keyring-daemon hostbook may stop and start again: one the
    /// bus started through gnome-keyring's D-Bus service file (its command line is the file's
    /// Exec line) or the one hostbook started (its record), running for no graphical session
    /// (no DISPLAY or WAYLAND_DISPLAY in its environment, which a desktop puts in the bus's
    /// activation environment). A desktop's own daemon (PAM's `--login`, the systemd unit's
    /// `--control-directory`) is never one.
    static func isReplaceable(_ pid: pid_t, folder: String, environment: [String: String]) -> Bool {
        guard ProcessChain.executable(of: pid)?.split(separator: "/").last == "gnome-keyring-daemon",
              let names = ProcessChain.environmentNames(of: pid),
              !names.contains("DISPLAY"), !names.contains("WAYLAND_DISPLAY") else { return false }
        if recorded(in: folder) == pid { return true }
        let argv = ProcessChain.commandLine(of: pid)
        return !argv.isEmpty && serviceFileCommands(environment: environment).contains(argv)
    }

    /// The Exec lines (split at spaces) of org.freedesktop.secrets.service in the D-Bus
    /// session services folders (`dbus-1/services` under $XDG_DATA_HOME and $XDG_DATA_DIRS,
    /// the D-Bus specification's "Message Bus Starting Services"), as a bus starts it.
    private static func serviceFileCommands(environment: [String: String]) -> [[String]] {
        var folders: [String] = []
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { folders.append(data) }
        else if let home = environment["HOME"], home.hasPrefix("/") { folders.append(home + "/.local/share") }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        folders += dirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return folders.compactMap { folder in
            let fd = open(folder + "/dbus-1/services/org.freedesktop.secrets.service", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            guard let bytes = try? FileDescriptor(fd).readPrefix(limit: 16_384) else { return nil }
            let exec = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Exec=") }
            return exec.map { $0.dropFirst(5).split(separator: " ").map(String.init) }
        }
    }

    // MARK: The record

    private static func folder(_ environment: [String: String]) throws(VaultError) -> String {
        do { return try PrivateSocketDirectory.prepare(environment: environment) } catch {
            throw VaultError(.failed, "cannot prepare hostbook's private folder: \(error)",
                             hint: "Set XDG_RUNTIME_DIR to a folder of yours, or check the permissions of the folder named.")
        }
    }

    private static func record(_ pid: pid_t, in folder: String) throws(VaultError) {
        guard let started = ProcessState.startTime(pid) else { throw VaultError(.failed, "gnome-keyring-daemon (pid \(pid)) ended as it started") }
        do {
            try AtomicFile.write(folder + "/" + recordName, bytes: Array("\(pid) \(started)\n".utf8), mode: 0o600, replace: true)
        } catch {
            throw VaultError(.failed, "cannot write \(folder)/\(recordName): \(error)",
                             hint: "Check the permissions of the folder named, then try again.")
        }
    }

    /// The recorded pid when that process still runs with the recorded start time.
    private static func recorded(in folder: String) -> pid_t? {
        let fd = open(folder + "/" + recordName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let bytes = try? FileDescriptor(fd).readPrefix(limit: 64) else { return nil }
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let pid = pid_t(words[0]), pid > 1, let started = UInt64(words[1]),
              ProcessState.isRunning(pid), ProcessState.startTime(pid) == started else { return nil }
        return pid
    }
}

/// Whether this login belongs to a graphical session, whose keyring hostbook never
/// replaces: DISPLAY or WAYLAND_DISPLAY set, or XDG_SESSION_TYPE x11 or wayland.
public enum GraphicalSession {
    public static func isPresent(environment: [String: String]) -> Bool {
        if let display = environment["DISPLAY"], !display.isEmpty { return true }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty { return true }
        return ["x11", "wayland"].contains(environment["XDG_SESSION_TYPE"] ?? "")
    }
}
