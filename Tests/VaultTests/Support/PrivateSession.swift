// A D-Bus session bus of a test's own, optionally with a GNOME Keyring on it, for states the
// shared keyring of the test run must never be put in (locked, missing, hung): other test
// processes use that one in parallel. Everything lives in a temporary folder; the processes
// are ended by PID when the test is done.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PrivateSession {
    enum Keyring {
        /// No Secret Service at all (and no D-Bus activation that could start one).
        case none
        /// gnome-keyring-daemon --unlock: the `login` collection is the default, unlocked.
        case unlocked
        /// gnome-keyring-daemon without --unlock: a service with no default collection.
        case withoutLogin
    }

    private let folder: TempFolder
    var directory: URL { folder.url }
    let address: String
    private let bus: Process
    private var keyring: Process?

    /// `program`: the gnome-keyring-daemon to run (a copy under another name, to see how a
    /// service's name is shown).
    init(keyring mode: Keyring, program: String = "gnome-keyring-daemon") throws {
        folder = try TempFolder()
        let directory = folder.url
        for sub in ["home", "data", "config", "run"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub),
                                                    withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        // No <servicedir>: nothing can be D-Bus activated on this bus.
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
        let configPath = directory.appendingPathComponent("bus.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bus.arguments = ["dbus-daemon", "--config-file=\(configPath)", "--nofork", "--nopidfile"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        try waitFor("the private bus") { self.busCall(["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                        "--method", "org.freedesktop.DBus.GetId"]) != nil }
        if mode != .none { try startKeyring(unlock: mode == .unlocked, program: program) }
    }

    /// The environment a child process needs to use this bus (and not the test run's).
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    private func startKeyring(unlock: Bool, program: String) throws {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        daemon.arguments = [program, "--foreground", "--components=secrets"] + (unlock ? ["--unlock"] : [])
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env["HOME"] = directory.appendingPathComponent("home").path
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("run").path
        daemon.environment = env
        let input = Pipe()
        daemon.standardInput = input
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        keyring = daemon
        if unlock { input.fileHandleForWriting.write(Data("test-password".utf8)) }
        try input.fileHandleForWriting.close()
        try waitFor("gnome-keyring-daemon on the private bus") {
            self.busCall(["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.secrets"]) == "(true,)"
        }
        if unlock {
            try waitFor("the login collection") {
                let alias = self.busCall(["--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
                                          "--method", "org.freedesktop.Secret.Service.ReadAlias", "default"])
                return alias != nil && alias != "(objectpath '/',)"
            }
        }
    }

    /// Locks the default collection for real, through the Secret Service API.
    func lockDefaultCollection() throws {
        let reply = busCall(["--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
                             "--method", "org.freedesktop.Secret.Service.Lock", "['/org/freedesktop/secrets/collection/login']"])
        XCTAssertNotNil(reply, "Lock failed")
    }

    /// Freezes the keyring daemon (it keeps its bus name but never answers) or thaws it.
    func freezeKeyring() { if let keyring { kill(keyring.processIdentifier, SIGSTOP) } }
    func thawKeyring() { if let keyring { kill(keyring.processIdentifier, SIGCONT) } }

    /// Freezes or thaws the bus daemon itself: connecting hangs.
    func freezeBus() { kill(bus.processIdentifier, SIGSTOP) }
    func thawBus() { kill(bus.processIdentifier, SIGCONT) }

    /// `gdbus call --address ...`; the reply line, or nil when the call failed.
    func busCall(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gdbus", "call", "--address", address, "--timeout", "5"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func waitFor(_ what: String, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if ready() { return }
            usleep(50_000)
        }
        throw NSError(domain: "PrivateSession", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(what) did not start"])
    }

    /// Ends the processes this session started (by PID) and removes its folder.
    func close() {
        for process in [keyring, bus].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            process.waitUntilExit()
        }
        keyring = nil
        try? FileManager.default.removeItem(at: directory)  // now, not when the session goes
    }

    deinit { close() }
}
