// hostbook over SSH on a server whose logins get systemd's user bus (dbus-user-session):
// the bus is there, no desktop is, and gnome-keyring's D-Bus service file lets the bus
// start a gnome-keyring-daemon whose login keyring stays locked. `hostbook vault unlock`
// replaces that daemon with one it unlocks on the same bus, which a second login finds.
// Real sshd, ssh, dbus-daemon (started as a user bus would be, at $XDG_RUNTIME_DIR/bus,
// with the system's service files) and gnome-keyring-daemon.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class HeadlessUserBusTests: XCTestCase {
    /// Logins to `server` as the fixture's user; each runs `script` with /bin/sh after the
    /// prelude (XDG_RUNTIME_DIR as systemd would set it; the bus's address once it runs).
    private struct Logins {
        let fx: HostbookFixture
        let server: PrivateSSHD
        let identity: String
        let knownHosts: String
        var prelude = ""

        func login(_ script: String, stdin: String? = nil) throws -> HostbookResult {
            let hostbook = "'" + HostbookProcess.binaryURL.path + "'"
            let setup = "[ -z \"${DBUS_SESSION_BUS_ADDRESS+set}\" ] || { echo 'the login has a bus' >&2; exit 97; }; "
                + "export HOSTBOOK_DB='\(fx.db)'; hostbook() { \(hostbook) \"$@\"; }; " + prelude
            return try fx.tool("/usr/bin/ssh", server.sshOptions(knownHosts: knownHosts)
                               + ["-i", identity, "-o", "IdentitiesOnly=yes", "-l", fx.userName, "127.0.0.1", setup + script],
                               stdin: stdin)
        }
    }

    /// The account's processes of these programs that still run, zombies left out.
    private func processes(_ uid: uid_t, _ names: [String] = ["gnome-keyring-daemon", "dbus-daemon", "hostbook"]) -> Set<pid_t> {
        Set(TestAccount.processes(of: uid).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"), !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z") else { return false }
            let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
            return names.contains(URL(fileURLWithPath: exe).lastPathComponent)
        })
    }

    func testVaultUnlockReplacesTheLockedKeyringOfTheUserBus() throws {
        let fx = try HostbookFixture()
        guard fx.account != nil else { throw XCTSkip("needs root, for a throwaway account whose keyrings and logins these are (as CI runs)") }
        let uid = fx.account?.uid ?? getuid()
        _ = try fx.run(["vault", "status"])
        let before = processes(uid)
        var started: Set<pid_t> { processes(uid).subtracting(before) }
        var daemons: Set<pid_t> { processes(uid, ["gnome-keyring-daemon"]).subtracting(before) }
        var runtime = ""
        defer {
            for pid in processes(uid).subtracting(before) { kill(pid, SIGKILL) }
            if runtime.hasPrefix("/tmp/hbrun.") { try? FileManager.default.removeItem(atPath: runtime) }
        }

        let loginKey = fx.dir.file("login-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "login", "-f", loginKey]).status, 0)
        let server = try PrivateSSHD(authorizedKeys: [try String(contentsOfFile: loginKey + ".pub", encoding: .utf8)])
        let deployKey = fx.dir.file("deploy-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "deploy", "-f", deployKey]).status, 0)
        let target = try PrivateSSHD(authorizedKeys: [try String(contentsOfFile: deployKey + ".pub", encoding: .utf8)])
        let knownHosts = fx.dir.file("known_hosts")
        try Data("[127.0.0.1]:\(server.port) \(try server.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        var logins = Logins(fx: fx, server: server, identity: loginKey, knownHosts: knownHosts)

        // The login's runtime folder (pam_systemd's /run/user/UID), short enough for sockets.
        let made = try logins.login("mktemp -d /tmp/hbrun.XXXXXX")
        XCTAssertEqual(made.status, 0, made.stderr)
        runtime = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(runtime.hasPrefix("/tmp/hbrun."), runtime)
        logins.prelude = "export XDG_RUNTIME_DIR='\(runtime)'; "

        // The login keyring exists (made by an earlier unlock, here on hostbook's private bus).
        XCTAssertEqual(try logins.login("hostbook vault unlock --passphrase-stdin >/dev/null", stdin: "open sesame").status, 0)
        XCTAssertEqual(try logins.login("hostbook vault lock").status, 0)
        XCTAssertEqual(started, [], "left running by the private bus")

        // The user bus, as systemd starts it: the system's service files, so a client may
        // start gnome-keyring-daemon through it.
        let bus = try logins.login("(setsid dbus-daemon --session --address=unix:path=\"$XDG_RUNTIME_DIR/bus\" --nofork --nopidfile "
                                   + "--print-address=3 3>&1 >/dev/null 2>&1 </dev/null &) | head -n 1")
        XCTAssertEqual(bus.status, 0, bus.stderr)
        let busPIDs = processes(uid, ["dbus-daemon"]).subtracting(before)
        XCTAssertEqual(busPIDs.count, 1, "the user bus: \(busPIDs)")
        logins.prelude += "export DBUS_SESSION_BUS_ADDRESS='unix:path=\(runtime)/bus'; "

        // A client starts the locked daemon, as on a server: status says locked.
        let activate = try logins.login("gdbus call --session -d org.freedesktop.secrets -o /org/freedesktop/secrets "
                                        + "-m org.freedesktop.Secret.Service.ReadAlias default")
        XCTAssertEqual(activate.status, 0, activate.stderr)
        let lockedDaemon = daemons
        XCTAssertEqual(lockedDaemon.count, 1, "the daemon the bus started: \(lockedDaemon)")
        let lockedStatus = try logins.login("hostbook vault status --json")
        XCTAssertEqual(lockedStatus.status, 1, lockedStatus.stdout + lockedStatus.stderr)
        XCTAssertTrue(lockedStatus.stdout.contains("\"status\": \"locked\""), lockedStatus.stdout)
        let lockedText = try logins.login("hostbook vault status")
        XCTAssertEqual(lockedText.status, 1)
        XCTAssertTrue(lockedText.stderr.hasSuffix("\nThere is no desktop here: run 'eval \"$(hostbook vault unlock)\"' to unlock your login keyring with its passphrase.\n"),
                      lockedText.stderr)
        XCTAssertEqual(daemons, lockedDaemon, "vault status replaced the daemon")

        // In a graphical session hostbook replaces nothing: it says to unlock on the desktop.
        let graphical = try logins.login("DISPLAY=:7 hostbook vault unlock --passphrase-stdin", stdin: "open sesame")
        XCTAssertEqual(graphical.status, 1, graphical.stderr)
        XCTAssertTrue(graphical.stderr.contains("Unlock it on the desktop"), graphical.stderr)
        XCTAssertEqual(daemons, lockedDaemon, "the desktop's daemon was replaced")

        // Without one, unlock replaces the locked daemon with an unlocked one on the same bus.
        let unlock = try logins.login("hostbook vault unlock --passphrase-stdin --json", stdin: "open sesame")
        XCTAssertEqual(unlock.status, 0, unlock.stderr)
        let unlockJSON = try JSONSerialization.jsonObject(with: unlock.stdoutBytes) as? [String: Any]
        XCTAssertEqual(unlockJSON?["bus"] as? String, "session")
        XCTAssertEqual(unlockJSON?["started"] as? Bool, true)
        XCTAssertEqual(unlockJSON?["address"] as? String, "unix:path=\(runtime)/bus")
        let unlocked = daemons
        XCTAssertEqual(unlocked.count, 1, "one daemon on the bus: \(unlocked)")
        XCTAssertTrue(unlocked.isDisjoint(with: lockedDaemon), "the locked daemon still runs")
        XCTAssertEqual((unlockJSON?["daemon_pid"] as? Int).map { pid_t($0) }, unlocked.first)
        XCTAssertEqual(started, busPIDs.union(unlocked), "a daemon, nothing else")
        for pid in unlocked {
            let argv = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            let environ = (try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? ""
            XCTAssertFalse(argv.contains("open sesame") || environ.contains("open sesame"), argv)
        }
        let folder = try FileManager.default.contentsOfDirectory(atPath: runtime + "/hostbook")
        for name in folder {
            let text = (try? String(contentsOfFile: runtime + "/hostbook/" + name, encoding: .utf8)) ?? ""
            XCTAssertFalse(text.contains("open sesame"), name)
        }

        // A key imported in one login is used in a second one on the same bus.
        try fx.ok("add", "target", "--hostname", "127.0.0.1", "--port", String(target.port), "--user", fx.userName)
        try fx.ok("known-hosts", "approve", "127.0.0.1", "--port", String(target.port), "--key", try target.publicKeyTypeAndBlob(), "--yes")
        let imported = try logins.login("hostbook keys import '\(deployKey)' --name deploy && hostbook edit target --key deploy")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let session = try logins.login("hostbook ssh target echo connected-through-hostbook")
        XCTAssertEqual(session.status, 0, session.stderr + target.log)
        XCTAssertEqual(session.stdout, "connected-through-hostbook\n")
        let status = try logins.login("hostbook vault status --json")
        XCTAssertEqual(status.status, 0, status.stderr)
        let statusJSON = try JSONSerialization.jsonObject(with: status.stdoutBytes) as? [String: Any]
        XCTAssertEqual(statusJSON?["headless"] as? Bool, true)
        XCTAssertEqual(statusJSON?["bus"] as? String, "session")
        let again = try logins.login("hostbook vault unlock --json")
        XCTAssertEqual(again.status, 0, again.stderr)
        let againJSON = try JSONSerialization.jsonObject(with: again.stdoutBytes) as? [String: Any]
        XCTAssertEqual(againJSON?["started"] as? Bool, false)
        XCTAssertEqual(daemons, unlocked)

        // lock stops the daemon hostbook started (the bus is the user's and stays).
        let lock = try logins.login("hostbook vault lock")
        XCTAssertEqual(lock.status, 0, lock.stderr)
        XCTAssertEqual(lock.stdout, "locked: stopped gnome-keyring-daemon (pid \(unlocked.first ?? 0)) on your session bus\n")
        XCTAssertEqual(started, busPIDs, "left running after vault lock")

        // A wrong passphrase: exit 6; no daemon of hostbook's runs.
        let wrong = try logins.login("hostbook vault unlock --passphrase-stdin", stdin: "open barley")
        XCTAssertEqual(wrong.status, 6, wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasPrefix("hostbook: wrong passphrase for the login keyring\n"), wrong.stderr)
        XCTAssertEqual(started, busPIDs, "left running after a wrong passphrase")

        // Unlocked again, the key is still there.
        let reopened = try logins.login("hostbook vault unlock --passphrase-stdin", stdin: "open sesame")
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        let second = try logins.login("hostbook ssh target echo still-there")
        XCTAssertEqual(second.status, 0, second.stderr + target.log)
        XCTAssertEqual(second.stdout, "still-there\n")

        // The last lock leaves only the test's bus, which the test stops.
        XCTAssertEqual(try logins.login("hostbook vault lock").status, 0)
        XCTAssertEqual(started, busPIDs, "left running at the end")
        for pid in busPIDs { kill(pid, SIGTERM) }
        for _ in 0..<500 where !started.isEmpty { usleep(10_000) }
        XCTAssertEqual(started, [], "left running at the end")
    }
}
