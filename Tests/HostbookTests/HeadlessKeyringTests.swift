// hostbook over SSH with no desktop session: `hostbook vault unlock` starts hostbook's own
// keyring (a private D-Bus session bus and the user's gnome-keyring-daemon) inside a real
// sshd login of the fixture's ordinary account, and later logins find it without any
// environment. Real sshd, ssh, dbus-daemon and gnome-keyring-daemon; the fixture's own bus
// and keyring are never what these logins use (sshd gives them no DBUS_SESSION_BUS_ADDRESS,
// which each login checks).
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class HeadlessKeyringTests: XCTestCase {
    /// A login to `server` as the fixture's user running `script` with /bin/sh; the script
    /// first fails (exit 97) if the login has a D-Bus session bus.
    private struct Logins {
        let fx: HostbookFixture
        let server: PrivateSSHD
        let identity: String
        let knownHosts: String

        func login(_ script: String, stdin: String? = nil) throws -> HostbookResult {
            let hostbook = "'" + HostbookProcess.binaryURL.path + "'"
            let prelude = "[ -z \"${DBUS_SESSION_BUS_ADDRESS+set}\" ] || { echo 'the login has a bus' >&2; exit 97; }; "
                + "export HOSTBOOK_DB='\(fx.db)'; hostbook() { \(hostbook) \"$@\"; }; "
            return try fx.tool("/usr/bin/ssh", server.sshOptions(knownHosts: knownHosts)
                               + ["-i", identity, "-o", "IdentitiesOnly=yes", "-l", fx.userName, "127.0.0.1", prelude + script],
                               stdin: stdin)
        }
    }

    /// The account's keyring and bus processes (gnome-keyring-daemon, dbus-daemon, hostbook)
    /// that still run, zombies left out.
    private func keyringProcesses(_ uid: uid_t, names: [String] = ["gnome-keyring-daemon", "dbus-daemon", "hostbook"]) -> Set<pid_t> {
        Set(TestAccount.processes(of: uid).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"), !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z") else { return false }
            let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
            return names.contains(URL(fileURLWithPath: exe).lastPathComponent)
        })
    }

    func testAVaultOverSSHWithoutADesktopSession() throws {
        let fx = try HostbookFixture()
        guard fx.account != nil else { throw XCTSkip("needs root, for a throwaway account whose keyrings and logins these are (as CI runs)") }
        let uid = fx.account?.uid ?? getuid()
        // The fixture's own session (started by its first run) is the baseline.
        _ = try fx.run(["vault", "status"])
        let before = keyringProcesses(uid)
        var started: Set<pid_t> { keyringProcesses(uid).subtracting(before) }
        defer {
            for pid in keyringProcesses(uid).subtracting(before) { kill(pid, SIGKILL) }
            // The logins' private folder in /tmp (they have no XDG_RUNTIME_DIR), named in the home.
            let home = fx.account?.home ?? fx.dir.file("home")
            if let record = try? String(contentsOfFile: home + "/.local/state/hostbook/socket-folder", encoding: .utf8) {
                let folder = record.trimmingCharacters(in: .whitespacesAndNewlines)
                if folder.hasPrefix("/tmp/hostbook-") { try? FileManager.default.removeItem(atPath: folder) }
            }
        }

        // The login server (the "remote machine" the user is logged in to) and the target
        // hostbook connects to from there, which accepts only the imported key.
        let loginKey = fx.dir.file("login-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "login", "-f", loginKey]).status, 0)
        let server = try PrivateSSHD(authorizedKeys: [try String(contentsOfFile: loginKey + ".pub", encoding: .utf8)])
        let deployKey = fx.dir.file("deploy-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "deploy", "-f", deployKey]).status, 0)
        let target = try PrivateSSHD(authorizedKeys: [try String(contentsOfFile: deployKey + ".pub", encoding: .utf8)])
        let knownHosts = fx.dir.file("known_hosts")
        try Data("[127.0.0.1]:\(server.port) \(try server.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let logins = Logins(fx: fx, server: server, identity: loginKey, knownHosts: knownHosts)

        // First login: no bus, no keyring. unlock starts both and prints the line to eval.
        let unlock = try logins.login("hostbook vault unlock --passphrase-stdin", stdin: "open sesame")
        XCTAssertEqual(unlock.status, 0, unlock.stderr)
        // sshd gives the login no XDG_RUNTIME_DIR: the bus is in hostbook's private folder in
        // /tmp, the one the agent's socket uses.
        XCTAssertTrue(unlock.stdout.hasPrefix("DBUS_SESSION_BUS_ADDRESS='unix:path=/tmp/hostbook-"), unlock.stdout)
        XCTAssertTrue(unlock.stdout.contains("; export DBUS_SESSION_BUS_ADDRESS;\n"), unlock.stdout)
        XCTAssertFalse(unlock.stdout.contains("open sesame"))
        let daemons = keyringProcesses(uid, names: ["gnome-keyring-daemon"]).subtracting(before)
        XCTAssertEqual(daemons.count, 1, "gnome-keyring-daemon processes started: \(daemons)")
        XCTAssertEqual(started.count, 2, "a bus and a daemon, nothing else: \(started)")
        // Nothing of the passphrase in any argv or environment; both in a session of their
        // own, stdout and stderr on /dev/null, no pipe of hostbook's or the login's (only the
        // daemon's stdin, the passphrase's pipe, whose writer is gone).
        for pid in started {
            let argv = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            let environ = (try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? ""
            XCTAssertFalse(argv.contains("open sesame") || environ.contains("open sesame"), argv)
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
            XCTAssertEqual(fields.count > 4 ? fields[4] : "", Substring(String(pid)), "session id of \(pid): \(stat)")
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for fd in fds {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? ""
                if fd == "1" || fd == "2" { XCTAssertEqual(target, "/dev/null", "fd \(fd) of \(argv)") }
                if Int(fd)! > 2 { XCTAssertFalse(target.hasPrefix("pipe:"), "fd \(fd) of \(argv): \(target)") }
            }
        }

        // A second login, without eval: keys import writes into the same keyring, and
        // hostbook ssh logs in to the target with that key.
        try fx.ok("add", "target", "--hostname", "127.0.0.1", "--port", String(target.port), "--user", fx.userName)
        try fx.ok("known-hosts", "approve", "127.0.0.1", "--port", String(target.port), "--key", try target.publicKeyTypeAndBlob(), "--yes")
        let imported = try logins.login("hostbook keys import '\(deployKey)' --name deploy && hostbook edit target --key deploy")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let session = try logins.login("hostbook ssh target echo connected-through-hostbook")
        XCTAssertEqual(session.status, 0, session.stderr + target.log)
        XCTAssertEqual(session.stdout, "connected-through-hostbook\n")
        XCTAssertTrue(target.log.contains("Accepted publickey for \(fx.userName)"), target.log)

        // A third login finds the same keyring: status names it, unlock starts nothing.
        let status = try logins.login("hostbook vault status --json")
        XCTAssertEqual(status.status, 0, status.stderr)
        let statusJSON = try JSONSerialization.jsonObject(with: status.stdoutBytes) as? [String: Any]
        XCTAssertEqual(statusJSON?["status"] as? String, "ok")
        XCTAssertEqual(statusJSON?["headless"] as? Bool, true)
        XCTAssertEqual(statusJSON?["service"] as? String, "gnome-keyring-daemon")
        let again = try logins.login("hostbook vault unlock --json")
        XCTAssertEqual(again.status, 0, again.stderr)
        let againJSON = try JSONSerialization.jsonObject(with: again.stdoutBytes) as? [String: Any]
        XCTAssertEqual(againJSON?["started"] as? Bool, false)
        XCTAssertEqual((againJSON?["daemon_pid"] as? Int).map { pid_t($0) }, daemons.first)
        XCTAssertEqual(keyringProcesses(uid, names: ["gnome-keyring-daemon"]).subtracting(before), daemons)

        // The standing agent started from a login reads the key through the same keyring,
        // and keeps running across lock and unlock.
        let agentHosts = fx.dir.file("target_known_hosts")
        try Data("[127.0.0.1]:\(target.port) \(try target.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: agentHosts))
        let throughAgent = "eval \"$(hostbook agent start)\" >/dev/null && ssh -F none -p \(target.port) "
            + "-o BatchMode=yes -o IdentityAgent=\"$SSH_AUTH_SOCK\" -o UserKnownHostsFile='\(agentHosts)' "
            + "-o GlobalKnownHostsFile=/dev/null -l \(fx.userName) 127.0.0.1 echo through-the-agent"
        let viaAgent = try logins.login(throughAgent)
        XCTAssertEqual(viaAgent.status, 0, viaAgent.stderr + target.log)
        XCTAssertEqual(viaAgent.stdout, "through-the-agent\n")
        let agents = keyringProcesses(uid, names: ["hostbook"]).subtracting(before)
        XCTAssertEqual(agents.count, 1, "one standing agent: \(agents)")

        // lock stops the daemon and the bus; the keyring stays on disk, encrypted.
        let lock = try logins.login("hostbook vault lock")
        XCTAssertEqual(lock.status, 0, lock.stderr)
        XCTAssertEqual(started, agents, "left running after vault lock (the agent stays)")
        // The agent was told to drop the key at once: it no longer signs, without waiting
        // for its next look at the vault.
        XCTAssertTrue(lock.stdout.hasSuffix("The standing agent (pid \(agents.first ?? 0)) dropped the keys it held.\n"), lock.stdout)
        let afterLock = try logins.login(throughAgent)
        XCTAssertEqual(afterLock.status, 255, afterLock.stdout + afterLock.stderr)
        XCTAssertFalse(afterLock.stdout.contains("through-the-agent"))
        let locked = try logins.login("hostbook vault status")
        XCTAssertEqual(locked.status, 1)
        // A shell that ran eval "$(hostbook vault unlock)" still names the stopped bus: locked.
        let busLine = unlock.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let namedBus = try logins.login(busLine + " hostbook vault status --json")
        XCTAssertEqual(namedBus.status, 1)
        XCTAssertTrue(namedBus.stdout.contains("\"status\": \"locked\""), namedBus.stdout)
        XCTAssertTrue(namedBus.stderr.hasPrefix("hostbook: hostbook's keyring is locked (not running: 'hostbook vault lock' stopped it)\n"), namedBus.stderr)
        // ssh-add -x / -X makes the agent forget the key it has read: it must read it again,
        // through the keyring started next.
        let askpass = fx.dir.file("agent-lock-askpass")
        try Data("#!/bin/sh\necho agent-lock-word\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)
        let relock = try logins.login("eval \"$(hostbook agent start)\" >/dev/null && export SSH_ASKPASS='\(askpass)' "
                                      + "SSH_ASKPASS_REQUIRE=force && ssh-add -x && ssh-add -X")
        XCTAssertEqual(relock.status, 0, relock.stderr)

        // No passphrase: a prompt is needed (exit 3); an empty one is refused (exit 5).
        let noInput = try logins.login("hostbook vault unlock --no-input </dev/null")
        XCTAssertEqual(noInput.status, 3, noInput.stderr)
        XCTAssertTrue(noInput.stderr.contains("--passphrase-stdin"), noInput.stderr)
        let empty = try logins.login("hostbook vault unlock --passphrase-stdin", stdin: "")
        XCTAssertEqual(empty.status, 5, empty.stderr)
        XCTAssertEqual(started, agents, "left running after a refused passphrase")

        // A wrong passphrase: exit 6, and nothing left running.
        let wrong = try logins.login("hostbook vault unlock --passphrase-stdin", stdin: "open barley")
        XCTAssertEqual(wrong.status, 6, wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasPrefix("hostbook: wrong passphrase for the login keyring\n"), wrong.stderr)
        XCTAssertEqual(wrong.stdout, "")
        XCTAssertEqual(started, agents, "left running after a wrong passphrase")

        // Unlocked again: a new daemon, and the key is still there.
        let reopened = try logins.login("hostbook vault unlock --passphrase-stdin --json", stdin: "open sesame")
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        let reopenedJSON = try JSONSerialization.jsonObject(with: reopened.stdoutBytes) as? [String: Any]
        XCTAssertEqual(reopenedJSON?["started"] as? Bool, true)
        XCTAssertNotEqual((reopenedJSON?["daemon_pid"] as? Int).map { pid_t($0) }, daemons.first)
        let second = try logins.login("hostbook ssh target echo still-there")
        XCTAssertEqual(second.status, 0, second.stderr + target.log)
        XCTAssertEqual(second.stdout, "still-there\n")
        // The agent that ran through the lock reads the key from the new daemon.
        let agentAgain = try logins.login(throughAgent)
        XCTAssertEqual(agentAgain.status, 0, agentAgain.stderr + target.log)
        XCTAssertEqual(agentAgain.stdout, "through-the-agent\n")
        XCTAssertEqual(keyringProcesses(uid, names: ["hostbook"]).subtracting(before), agents, "the same agent")
        // vault lock --json says the agent dropped its keys.
        let lockJSON = try logins.login("hostbook vault lock --json")
        XCTAssertEqual(lockJSON.status, 0, lockJSON.stderr)
        let lockObject = try JSONSerialization.jsonObject(with: lockJSON.stdoutBytes) as? [String: Any]
        XCTAssertEqual(lockObject?["agent_dropped_keys"] as? Bool, true, lockJSON.stdout)
        XCTAssertEqual((lockObject?["agent_pid"] as? Int).map { pid_t($0) }, agents.first)
        // agent stop says what it stopped; a second finds none.
        let stop = try logins.login("hostbook agent stop")
        XCTAssertEqual(stop.status, 0, stop.stderr)
        XCTAssertTrue(stop.stdout.hasPrefix("Stopped the agent (pid \(agents.first ?? 0)) at /tmp/hostbook-"), stop.stdout)
        XCTAssertTrue(stop.stdout.hasSuffix("/agent.sock\n") && stop.stdout.split(separator: "\n").count == 1, stop.stdout)
        let none = try logins.login("hostbook agent stop --json")
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: none.stdoutBytes) as? [String: Any])?["stopped"] as? Bool, false)

        // agent stop (above) and the locks leave nothing hostbook started.
        XCTAssertEqual(try logins.login("hostbook vault lock").status, 0)
        XCTAssertEqual(started, [], "left running at the end")
    }

    /// Where the session's own Secret Service answers (the fixture's bus and keyring), unlock
    /// starts nothing; lock locks its default keyring, and unlock then says to unlock it there.
    func testWithTheSessionsOwnKeyringNothingIsStarted() throws {
        let fx = try HostbookFixture()
        guard fx.account != nil else { throw XCTSkip("needs root, for a throwaway account whose keyrings and logins these are (as CI runs)") }
        let uid = fx.account?.uid ?? getuid()
        // gnome-keyring-daemon, or keepassxc inside scripts/with-keepassxc.
        let service = try XCTUnwrap((try fx.json("vault", "status") as? [String: Any])?["service"] as? String)
        let before = keyringProcesses(uid)
        defer { for pid in keyringProcesses(uid).subtracting(before) { kill(pid, SIGKILL) } }

        let unlock = try fx.run(["vault", "unlock"])
        XCTAssertEqual(unlock.status, 0, unlock.stderr)
        XCTAssertEqual(unlock.stdout, "")
        XCTAssertEqual(unlock.stderr, "hostbook: this session's Secret Service (\(service)) is reachable and unlocked; nothing to start\n")

        let lock = try fx.run(["vault", "lock"])
        XCTAssertEqual(lock.status, 0, lock.stderr)
        XCTAssertEqual(lock.stdout, "locked: the default keyring of this session's Secret Service\n")
        let status = try fx.run(["vault", "status", "--json"])
        XCTAssertEqual(status.status, 1)
        XCTAssertTrue(status.stdout.contains("\"status\": \"locked\""), status.stdout)

        try fx.fails(["vault", "unlock", "--passphrase-stdin"], stdin: "not read", status: 1, stderr:
            "hostbook: this session's Secret Service (\(service)) is reachable, but its default keyring is locked\n"
            + "Unlock it on the desktop (log in there, or unlock the keyring in Seahorse or KeePassXC); hostbook starts no second keyring beside it.\n")
        XCTAssertEqual(keyringProcesses(uid).subtracting(before), [], "vault unlock started something")
    }

    /// On a terminal the passphrase is asked without echo: twice when the login keyring is
    /// made, once afterwards.
    func testThePromptAsksTwiceWhenTheKeyringIsMade() throws {
        let fx = try HostbookFixture()
        guard fx.account != nil else { throw XCTSkip("needs root, for a throwaway account whose keyrings and logins these are (as CI runs)") }
        let uid = fx.account?.uid ?? getuid()
        _ = try fx.run(["vault", "status"])
        let before = keyringProcesses(uid)
        defer { for pid in keyringProcesses(uid).subtracting(before) { kill(pid, SIGKILL) } }
        // No session bus for these runs (an empty address is none).
        fx.environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        let runtime = try XCTUnwrap(fx.environment["XDG_RUNTIME_DIR"])

        let first = try ScriptedTerminal(["vault", "unlock"], fixture: fx)
        first.expect("New passphrase for the login keyring: ")
        first.send("first words")
        first.expect("Repeat the passphrase: ")
        first.send("first words")
        XCTAssertEqual(first.finish(), 0, first.transcript)
        XCTAssertTrue(first.transcript.contains("DBUS_SESSION_BUS_ADDRESS='unix:path=\(runtime)/hostbook/bus'; export DBUS_SESSION_BUS_ADDRESS;"),
                      first.transcript)
        XCTAssertFalse(first.transcript.contains("first words"), "the passphrase was echoed")
        XCTAssertEqual(keyringProcesses(uid, names: ["gnome-keyring-daemon"]).subtracting(before).count, 1)

        XCTAssertEqual(try fx.run(["vault", "lock"]).status, 0)
        let second = try ScriptedTerminal(["vault", "unlock"], fixture: fx)
        second.expect("Passphrase for the login keyring: ")
        second.send("first words")
        XCTAssertEqual(second.finish(), 0, second.transcript)
        XCTAssertFalse(second.transcript.contains("Repeat"), second.transcript)
        XCTAssertEqual(try fx.run(["vault", "lock"]).status, 0)
        XCTAssertEqual(keyringProcesses(uid).subtracting(before), [], "left running")
    }

    /// After `vault lock`, a shell that still names the stopped keyring's bus is told it is
    /// locked; on a terminal a wrong passphrase is asked again (3 tries), and the last
    /// refusal's hint fits the keyring: made by `vault unlock`, or by a desktop session.
    func testAWrongPassphraseIsAskedAgainWithTheHintForItsKeyring() throws {
        let fx = try HostbookFixture()
        guard let account = fx.account else { throw XCTSkip("needs root, for a throwaway account whose keyrings and logins these are (as CI runs)") }
        _ = try fx.run(["vault", "status"])
        let before = keyringProcesses(account.uid)
        defer { for pid in keyringProcesses(account.uid).subtracting(before) { kill(pid, SIGKILL) } }
        fx.environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        let runtime = try XCTUnwrap(fx.environment["XDG_RUNTIME_DIR"])

        let made = try fx.run(["vault", "unlock", "--passphrase-stdin"], stdin: "right words")
        XCTAssertEqual(made.status, 0, made.stderr)
        let note = account.home + "/.local/share/keyrings/.login.keyring.made-by-hostbook"
        XCTAssertTrue(FileManager.default.fileExists(atPath: note), "vault unlock made the keyring and noted it")
        XCTAssertEqual(try fx.run(["vault", "lock"]).status, 0)

        // The shell that ran eval "$(hostbook vault unlock)" still names the bus: locked.
        let status = try fx.run(["vault", "status", "--json"], bytes: nil,
                                environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime)/hostbook/bus"])
        XCTAssertEqual(status.status, 1)
        XCTAssertTrue(status.stdout.contains("\"status\": \"locked\""), status.stdout)
        XCTAssertEqual(status.stderr, "hostbook: hostbook's keyring is locked (not running: 'hostbook vault lock' stopped it)\n"
                       + "Run 'eval \"$(hostbook vault unlock)\"' to unlock it with your login keyring's passphrase.\n")

        // Two wrong, then the right one: unlocked.
        let retried = try ScriptedTerminal(["vault", "unlock"], fixture: fx)
        retried.expect("Passphrase for the login keyring: ")
        retried.send("wrong one")
        retried.expect("hostbook: wrong passphrase for the login keyring; try again (2 more)")
        retried.expect("Passphrase for the login keyring: ")
        retried.send("wrong two")
        retried.expect("hostbook: wrong passphrase for the login keyring; try again (1 more)")
        retried.expect("Passphrase for the login keyring: ")
        retried.send("right words")
        XCTAssertEqual(retried.finish(), 0, retried.transcript)
        XCTAssertEqual((try fx.json("vault", "status") as? [String: Any])?["status"] as? String, "ok")
        XCTAssertEqual(try fx.run(["vault", "lock"]).status, 0)

        // Three wrong: exit 6, and the hint names the passphrase given to hostbook.
        func threeWrong() throws -> (Int32, String) {
            let t = try ScriptedTerminal(["vault", "unlock"], fixture: fx)
            for word in ["wrong one", "wrong two", "wrong three"] {
                t.expect("Passphrase for the login keyring: ")
                t.send(word)
            }
            let status = t.finish()
            return (status, t.transcript)
        }
        let (ours, oursText) = try threeWrong()
        XCTAssertEqual(ours, 6, oursText)
        XCTAssertTrue(oursText.contains("hostbook: wrong passphrase for the login keyring\n"
                                        + "Type the passphrase you gave the first 'hostbook vault unlock', which made this login keyring; nothing was left running.\n"), oursText)
        XCTAssertFalse(oursText.contains("try again (0 more)"), oursText)
        // A login keyring a desktop session made: its hint says so, and names no hostbook unlock.
        try FileManager.default.removeItem(atPath: note)
        let (desktop, desktopText) = try threeWrong()
        XCTAssertEqual(desktop, 6, desktopText)
        XCTAssertTrue(desktopText.contains("This login keyring was made by a desktop session, not by hostbook"), desktopText)
        XCTAssertFalse(desktopText.contains("you gave the first 'hostbook vault unlock'"), desktopText)
        XCTAssertEqual(keyringProcesses(account.uid).subtracting(before), [], "left running")
    }
}

