// The fault campaign on the real binary, the real database and the real keyring (issue 28;
// docs/reliability.md): SIGKILL at each named step of every write across the two stores
// (HOSTBOOK_FAULT_STEP, debug builds) and at random moments, ten writers and the signing
// agent at once, and the keyring daemon killed during a write. After each fault
// FaultCampaign.check holds the database and the vault to what they must be. A full disk
// runs in-process: HostbookLogicTests/FullDiskLogicTests.
// benchmarks/fault-campaign.sh runs the loops at full size (HOSTBOOK_FAULT_ITERATIONS).
import Foundation
import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class FaultCampaignTests: XCTestCase {
    var hb: HostbookFixture!
    var campaign: FaultCampaign { FaultCampaign(hb: hb) }

    override func setUpWithError() throws {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service: run inside scripts/with-keyring")
        hb = try HostbookFixture()
    }

    override func tearDown() {
        if let hb { _ = try? hb.run(["agent", "stop"]) }
        hb = nil
    }

    /// SIGKILL at every named step of keys and passwords (Credentials/CredentialStoreFaultSteps.swift),
    /// one after the other on one database: each leaves what the two-store order promises.
    func testSIGKILLAtEveryNamedStepOfAKeyOrPasswordWrite() throws {
        let c = campaign
        try hb.ok("keys", "generate", "k0")
        try hb.ok("add", "p0", "--hostname", "p0.example", "--password-stdin", stdin: "pw-0\n")
        try hb.ok("add", "a0", "--hostname", "a0.example")
        var saved: [String: Set<String>] = ["p0": ["pw-0"]]
        var keys = ["k0"]
        var stepsHit = Set<String>()

        // A key: its item first, then its row.
        try c.killedAt("key.item-stored", ["keys", "generate", "k1"])
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM keys WHERE name = 'k1'"), "0")
        try c.check(after: "key.item-stored", orphans: 1, passwords: saved, keys: keys)
        try c.killedAt("key.row-saved", ["keys", "generate", "k1"])
        keys.append("k1")
        try c.check(after: "key.row-saved", orphans: 0, passwords: saved, keys: keys)
        try c.killedAt("key.row-removed", ["keys", "remove", "k1", "--yes"])
        keys.removeLast()
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM keys WHERE name = 'k1'"), "0")
        try c.check(after: "key.row-removed", orphans: 1, passwords: saved, keys: keys)
        stepsHit.formUnion(["key.item-stored", "key.row-saved", "key.row-removed"])

        // A new host's password: its item inside the row's transaction, which the kill rolls back.
        try c.killedAt("password.item-stored", ["add", "p1", "--hostname", "p1.example", "--password-stdin"], stdin: "pw-1\n")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'p1'"), "0")
        try c.check(after: "password.item-stored", orphans: 1, passwords: saved, keys: keys)
        try c.killedAt("password.row-saved", ["add", "p1", "--hostname", "p1.example", "--password-stdin"], stdin: "pw-1\n")
        saved["p1"] = ["pw-1"]
        try c.check(after: "password.row-saved", orphans: 0, passwords: saved, keys: keys)
        stepsHit.formUnion(["password.item-stored", "password.row-saved"])

        // A changed password: staged beside the old one, which goes once the row is saved.
        try c.killedAt("password.staged", ["edit", "p0", "--password-stdin"], stdin: "pw-0b\n")
        XCTAssertEqual(Set(try c.passwords(ofHost: "p0")), ["pw-0", "pw-0b"], "the old password is still there")
        saved["p0"] = ["pw-0", "pw-0b"]
        try c.check(after: "password.staged (p0)", orphans: 0, passwords: saved, keys: keys)
        try c.killedAt("password.staged", ["edit", "a0", "--password-stdin"], stdin: "pw-a\n")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT auth FROM hosts WHERE name = 'a0'"), "agent")
        try c.check(after: "password.staged (a0)", orphans: 1, passwords: saved, keys: keys)
        try c.killedAt("password.edit-saved", ["edit", "p1", "--password-stdin"], stdin: "pw-1b\n")
        saved["p1"] = ["pw-1b"]
        try c.check(after: "password.edit-saved", orphans: 0, passwords: saved, keys: keys)
        // The next write of the password deletes what the killed one left.
        try hb.ok("edit", "p0", "--password-stdin", stdin: "pw-0c\n")
        XCTAssertEqual(try c.passwords(ofHost: "p0"), ["pw-0c"])
        saved["p0"] = ["pw-0c"]
        stepsHit.formUnion(["password.staged", "password.edit-saved"])

        // Removing: the row first, then the item.
        try c.killedAt("host.row-removed", ["remove", "p1", "--yes"])
        saved["p1"] = nil
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'p1'"), "0")
        try c.check(after: "host.row-removed", orphans: 1, passwords: saved, keys: keys)
        stepsHit.insert("host.row-removed")

        // A step name no write has stops nothing.
        try hb.ok("add", "x0", "--hostname", "x0.example", "--password-stdin", stdin: "pw-x\n")
        XCTAssertEqual(try hb.run(["edit", "x0", "--tag", "t"], bytes: nil, environment: ["HOSTBOOK_FAULT_STEP": "no.such-step"]).status, 0)
        FaultCampaign.report("named-steps", ["steps": stepsHit.count, "kills": 9, "failures": testRun?.failureCount ?? 0])
    }

    /// Polls `condition` every 10 ms, for at most 30 s; whether it became true.
    private func waitFor(_ condition: () -> Bool) -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            usleep(10_000)
        }
        return false
    }

    // MARK: a publisher of team bundles

    /// A publisher's database P (`--db`) and a signing key in both databases: the standing
    /// agent, started here, serves this database's copy, and `bundle export --db P` signs
    /// through it. This database trusts the key for bundle `team`; the key's .pub file is
    /// DIR/signer.pub.
    private func startPublisher() throws -> (socket: String, db: String) {
        let db = hb.dir.file("p/hostbook.db")
        let signerFile = hb.dir.file("signer")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "signer", "-f", signerFile]).status, 0)
        try hb.ok("keys", "import", signerFile, "--name", "signer")
        XCTAssertEqual(try hb.run(["keys", "import", signerFile, "--name", "signer", "--db", db]).status, 0)
        let started = try hb.ok("agent", "start")
        let socket = String((started.stdout.split(separator: "\n").first ?? "").dropFirst("SSH_AUTH_SOCK=".count).prefix { $0 != ";" })
        let line = try hb.ok("keys", "public", "signer").stdout.split(separator: " ").prefix(2).joined(separator: " ")
        try hb.ok("bundle", "trust", "team", "--signer", line)
        XCTAssertEqual(try hb.tool("/bin/mkdir", [hb.dir.file("out")]).status, 0)
        return (socket, db)
    }

    /// Exports P's hosts tagged `team` (the next serial) and keeps a copy as DIR/bundleN.
    private func exportBundle(_ serial: Int, _ publisher: (socket: String, db: String)) throws {
        let export = try hb.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", hb.dir.file("out"),
                                 "--db", publisher.db, "--socket", publisher.socket, "--allow-removals"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(try hb.tool("/bin/cp", ["-r", hb.dir.file("out"), hb.dir.file("bundle\(serial)")]).status, 0)
    }

    /// SIGKILL at the bundle apply's step: the rows of a bundle that drops a host are
    /// committed, its password not yet deleted: a leftover item, which doctor names.
    func testSIGKILLAfterABundlesRowsAreSaved() throws {
        let c = campaign
        let publisher = try startPublisher()
        try hb.ok("add", "p0", "--hostname", "p0.example", "--password-stdin", stdin: "pw-0\n")
        for host in ["team-a", "team-b"] {
            XCTAssertEqual(try hb.run(["add", host, "--hostname", "\(host).example", "--tag", "team", "--db", publisher.db]).status, 0)
        }
        try exportBundle(1, publisher)
        try hb.ok("bundle", "import", hb.dir.file("bundle1"))
        try hb.ok("edit", "team-b", "--password-stdin", stdin: "pw-b\n")
        XCTAssertEqual(try hb.run(["remove", "team-b", "--yes", "--db", publisher.db]).status, 0)
        try exportBundle(2, publisher)

        try c.killedAt("bundle.rows-saved", ["bundle", "import", hb.dir.file("bundle2")])
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT group_concat(name) FROM hosts WHERE name LIKE 'team-%'"), "team-a")
        try c.check(after: "bundle.rows-saved", orphans: 1, passwords: ["p0": ["pw-0"]], keys: ["signer"])
        FaultCampaign.report("bundle-step", ["kills": 1, "failures": testRun?.failureCount ?? 0])
    }

    /// SIGKILL at each step of `vault unlock` where no session bus is (hostbook's headless
    /// keyring): the next unlock works, with what the kill left running, and every password
    /// stored before is still there; `vault lock` then stops everything.
    func testSIGKILLAtEveryStepOfVaultUnlock() throws {
        let c = campaign
        guard let account = hb.account else { throw XCTSkip("needs root, for a throwaway account whose keyrings these are (as CI runs)") }
        _ = try hb.run(["vault", "status"])   // the account's own session: the baseline
        let before = Set(TestAccount.processes(of: account.uid))
        defer { for pid in Set(TestAccount.processes(of: account.uid)).subtracting(before) { kill(pid, SIGKILL) } }
        hb.environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        for (round, step) in ["unlock.bus-started", "unlock.daemon-started"].enumerated() {
            try c.killedAt(step, ["vault", "unlock", "--passphrase-stdin"], stdin: "open sesame")
            let unlock = try hb.run(["vault", "unlock", "--passphrase-stdin"], stdin: "open sesame")
            XCTAssertEqual(unlock.status, 0, "after \(step): \(unlock.stderr)")
            try hb.ok("add", "h\(round)", "--hostname", "h\(round).example", "--password-stdin", stdin: "pw-\(round)\n")
            // doctor sees every saved host's password (h0's from before the second kill) in the
            // headless keyring, and nothing left over.
            XCTAssertEqual(try c.findings().count, 0, "after \(step)")
            try hb.ok("vault", "lock")
        }
        // What still runs (a stopped process whose parent went is a zombie until PID 1 reaps it).
        let left = Set(TestAccount.processes(of: account.uid)).subtracting(before).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
        }.map { pid in
            "\(pid) " + ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").replacingOccurrences(of: "\u{0}", with: " ")
        }
        XCTAssertEqual(left, [], "vault lock stopped what the kills left")
        FaultCampaign.report("unlock-steps", ["steps": 2, "kills": 2, "failures": testRun?.failureCount ?? 0])
    }

    /// SIGKILL at a random moment of a random two-store write (add or edit with a password,
    /// keys generate, remove, keys remove), HOSTBOOK_FAULT_ITERATIONS times (6 in the test
    /// suite). The seed is printed; HOSTBOOK_TEST_SEED replays a run.
    func testSIGKILLAtRandomMomentsOfTwoStoreWrites() throws {
        var random = SeededGenerator()
        let c = campaign
        let iterations = FaultCampaign.iterations(small: 6)
        try hb.ok("keys", "generate", "k0")
        try hb.ok("add", "p0", "--hostname", "p0.example", "--password-stdin", stdin: "pw-0\n")
        // How long one write takes here, to kill inside it.
        let t0 = Date()
        try hb.ok("add", "p1", "--hostname", "p1.example", "--password-stdin", stdin: "pw-1\n")
        let whole = Date().timeIntervalSince(t0)
        var given: [String: Set<String>] = ["p0": ["pw-0"], "p1": ["pw-1"]]
        var kills = 0, orphans = 0
        let pidFile = hb.dir.file("write.pid")
        for i in 0..<iterations {
            let hosts = try Shell.sql(hb.db, "SELECT name FROM hosts WHERE auth = 'password' ORDER BY name").split(separator: "\n").map(String.init)
            let keyNames = try Shell.sql(hb.db, "SELECT name FROM keys WHERE name != 'k0' ORDER BY name").split(separator: "\n").map(String.init)
            let password = "pw-\(i)-\(UInt32.random(in: 0...UInt32.max, using: &random))"
            let command: String
            var newPassword: (String, String)?
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                command = "add h\(i) --hostname h\(i).example --password-stdin"
                newPassword = ("h\(i)", password)
            case 1 where !hosts.isEmpty:
                let host = hosts.randomElement(using: &random)!
                command = "edit \(host) --password-stdin"
                newPassword = (host, password)
            case 2:
                command = "keys generate g\(i)"
            case 3 where hosts.count > 1:
                command = "remove \(hosts.filter { $0 != "p0" }.randomElement(using: &random)!) --yes"
            case 4 where !keyNames.isEmpty:
                command = "keys remove \(keyNames.randomElement(using: &random)!) --yes"
            default:
                command = "add h\(i) --hostname h\(i).example --password-stdin"
                newPassword = ("h\(i)", password)
            }
            if let (host, pw) = newPassword { given[host, default: []].insert(pw) }
            // The password through a pipe, as a user gives it; the pid of hostbook itself.
            let p = try Shell.start("printf '%s\\n' \"$PW\" | env -u PW \"$HB\" \(command) >/dev/null & echo $! > \"$PIDFILE\"; wait $!",
                                    environment: hb.environment.merging(["PW": password, "PIDFILE": pidFile]) { $1 },
                                    dir: hb.dir, tag: "random\(i)", account: hb.account)
            Thread.sleep(forTimeInterval: Double.random(in: 0...(whole * 0.9), using: &random))
            if let pid = pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""),
               kill(pid, SIGKILL) == 0 {
                kills += 1
            }
            p.waitUntilExit()
            try? FileManager.default.removeItem(atPath: pidFile)
            // Every host that uses a password still has one of those it was given, every key
            // its private key.
            let live = try Shell.sql(hb.db, "SELECT name FROM hosts WHERE auth = 'password'").split(separator: "\n").map(String.init)
            let liveKeys = try Shell.sql(hb.db, "SELECT name FROM keys").split(separator: "\n").map(String.init)
            orphans += try c.check(after: "iteration \(i) (\(command))",
                                   passwords: Dictionary(uniqueKeysWithValues: live.map { ($0, given[$0] ?? []) }), keys: liveKeys)
        }
        XCTAssertGreaterThan(kills, 0, "at least one write was killed")
        FaultCampaign.report("random-kills", ["iterations": iterations, "kills": kills, "orphans-fixed": orphans,
                                              "failures": testRun?.failureCount ?? 0])
    }

    /// Ten processes of the real binary writing one database at once (adds with passwords,
    /// tag edits of one shared host, key imports, bundle imports, adds and removes) while the
    /// standing agent signs from it: every write lands (no lost update: the shared host
    /// ends with every writer's tags), none fails, "database is locked" never reaches a user.
    func testTenWritersAndTheSigningAgentAtOnce() throws {
        let rounds = FaultCampaign.iterations(small: 4)
        let dir = hb.dir.path
        let publisher = try startPublisher()
        let socket = publisher.socket
        for w in 6...7 {
            for j in 0..<rounds {
                XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", hb.dir.file("key-\(w)-\(j)")]).status, 0)
            }
        }
        try hb.ok("add", "shared", "--hostname", "shared.example")
        for serial in 1...rounds {
            XCTAssertEqual(try hb.run(["add", "team-\(serial)", "--hostname", "t\(serial).example", "--tag", "team", "--db", publisher.db]).status, 0)
            try exportBundle(serial, publisher)
        }
        hb.account?.handOver()

        let writers: [String] = [
            // 0-2: adds with a password (both stores).
            "j=0; while [ $j -lt $ROUNDS ]; do printf 'pw-%s-%s\\n' $W $j | \"$HB\" add w$W-$j --hostname w$W-$j.example --password-stdin || exit 1; j=$((j+1)); done",
            // 3-5: tag edits of one host, and a password edit of it (read-modify-write of one row).
            "j=0; while [ $j -lt $ROUNDS ]; do \"$HB\" edit shared --tag t$W-$j || exit 1; printf 'pw-%s\\n' $j | \"$HB\" edit shared --password-stdin || exit 1; j=$((j+1)); done",
            // 6-7: key imports (both stores).
            "j=0; while [ $j -lt $ROUNDS ]; do \"$HB\" keys import \"$DIR/key-$W-$j\" --name k$W-$j || exit 1; j=$((j+1)); done",
            // 8: the bundles, in serial order.
            "j=1; while [ $j -le $ROUNDS ]; do \"$HB\" bundle import \"$DIR/bundle$j\" || exit 1; j=$((j+1)); done",
            // 9: adds and removes with a password.
            "j=0; while [ $j -lt $ROUNDS ]; do printf 'pw\\n' | \"$HB\" add r$j --hostname r$j.example --password-stdin || exit 1; \"$HB\" remove r$j --yes || exit 1; j=$((j+1)); done",
        ]
        var processes: [(Process, String)] = []
        for w in 0..<10 {
            let script = writers[w < 3 ? 0 : w < 6 ? 1 : w < 8 ? 2 : w == 8 ? 3 : 4]
            let env = hb.environment.merging(["W": String(w), "ROUNDS": String(rounds), "DIR": dir]) { $1 }
            processes.append((try Shell.start(script + " >/dev/null", environment: env, dir: hb.dir, tag: "writer\(w)", account: hb.account), "writer\(w)"))
        }
        // The agent signs all the while: a signature per round of each writer, and more.
        let signing = "i=0; echo data > \"$DIR/signed\"; while [ $i -lt $((ROUNDS * 5)) ]; do "
            + "SSH_AUTH_SOCK=\"$SOCK\" ssh-keygen -q -Y sign -f \"$DIR/signer.pub\" -n file \"$DIR/signed\" || exit 1; rm -f \"$DIR/signed.sig\"; i=$((i+1)); done"
        processes.append((try Shell.start(signing, environment: hb.environment.merging(["ROUNDS": String(rounds), "DIR": dir, "SOCK": socket]) { $1 },
                                          dir: hb.dir, tag: "signer", account: hb.account), "signer"))
        for (p, tag) in processes {
            p.waitUntilExit()
            let (_, err) = Shell.output(hb.dir, tag)
            XCTAssertEqual(p.terminationStatus, 0, "\(tag): \(err)")
            XCTAssertFalse(err.contains("locked") || err.contains("busy"), "\(tag): \(err)")
        }
        XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name LIKE 'w%'"), String(3 * rounds))
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name LIKE 'r%'"), "0")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM keys WHERE name LIKE 'k%'"), String(2 * rounds))
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name LIKE 'team-%'"), String(rounds))
        let tags = Set(try Shell.sql(hb.db, "SELECT tag FROM host_tags t JOIN hosts h ON h.id = t.host_id WHERE h.name = 'shared'")
            .split(separator: "\n").map(String.init))
        XCTAssertEqual(tags, Set((3...5).flatMap { w in (0..<rounds).map { "t\(w)-\($0)" } }), "every writer's tags on the shared host")
        XCTAssertEqual(try campaign.passwords(ofHost: "shared").count, 1, "one password item for the shared host")
        XCTAssertEqual(try campaign.findings().count, 0, "doctor is healthy")
        FaultCampaign.report("concurrent-writers", ["writers": 10, "rounds": rounds, "signatures": rounds * 5,
                                                    "failures": testRun?.failureCount ?? 0])
    }

    /// The keyring daemon killed while a write waits on it: the write fails with one line
    /// (exit 1) and writes no row; with a keyring started again on the same bus, the next
    /// write works.
    func testTheKeyringKilledDuringAWrite() throws {
        guard let account = hb.account else { throw XCTSkip("needs root, for a throwaway account whose keyring this kills (as CI runs)") }
        try hb.ok("add", "before", "--hostname", "before.example", "--password-stdin", stdin: "pw-before\n")
        let daemons = TestAccount.processes(of: account.uid).filter {
            (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("gnome-keyring-d") == true
        }
        let daemon = try XCTUnwrap(daemons.first, "the account's gnome-keyring-daemon")
        XCTAssertEqual(daemons.count, 1)
        // Stopped, the daemon takes the write's request and never answers; then it is killed.
        // The evidence that the request went out: dbus-monitor (as the account, on its bus)
        // shows a method call to something other than the bus itself.
        let monitor = try Shell.start("exec dbus-monitor --session \"type='method_call'\"", dir: hb.dir, tag: "monitor", account: account)
        defer {
            kill(monitor.processIdentifier, SIGTERM)
            monitor.waitUntilExit()
        }
        func monitored() -> [Substring] { Shell.output(hb.dir, "monitor").0.split(separator: "\n") }
        XCTAssertTrue(waitFor { monitored().contains { $0.hasPrefix("signal ") && $0.hasSuffix("member=NameLost") } }, "dbus-monitor is monitoring")
        kill(daemon, SIGSTOP)
        let write = try Shell.start("printf 'pw-during\\n' | \"$HB\" add during --hostname during.example --password-stdin",
                                    environment: hb.environment, dir: hb.dir, tag: "during", account: account)
        XCTAssertTrue(waitFor { monitored().contains { $0.hasPrefix("method call ") && !$0.contains("-> destination=org.freedesktop.DBus ") } },
                      "the write's call to the keyring: \(monitored())")
        XCTAssertTrue(write.isRunning, "the write waits on the stopped keyring")
        kill(daemon, SIGKILL)
        write.waitUntilExit()
        let (out, err) = Shell.output(hb.dir, "during")
        XCTAssertEqual(write.terminationStatus, 1, err)
        XCTAssertEqual(out, "")
        XCTAssertTrue(err.hasPrefix("hostbook: "), err)
        XCTAssertLessThanOrEqual(err.split(separator: "\n").count, 2, "one line and a hint: \(err)")
        XCTAssertFalse(err.contains("pw-during"))
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'during'"), "0", "no row without its secret")
        XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok")

        // A keyring again on the account's bus (a new, empty one: the killed one's password
        // was with-keyring's), started as with-keyring starts it.
        let restart = """
            kr="$DIR/keyring2"; mkdir -p -m 700 "$kr/home" "$kr/data" "$kr/config" "$kr/runtime"
            head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \\n' > "$kr/pw"
            HOME="$kr/home" XDG_DATA_HOME="$kr/data" XDG_CONFIG_HOME="$kr/config" XDG_RUNTIME_DIR="$kr/runtime" \\
              exec gnome-keyring-daemon --unlock --components=secrets --foreground < "$kr/pw"
            """
        let keyring = try Shell.start(restart, environment: ["DIR": hb.dir.path], dir: hb.dir, tag: "keyring2", account: account)
        defer {
            kill(keyring.processIdentifier, SIGTERM)
            keyring.waitUntilExit()
        }
        // Ready once it owns the name (asked of the bus, which starts nothing) and the
        // default alias names its unlocked collection.
        let ready = """
            gdbus call --session --timeout 5 --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \\
              --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets | grep -q true || exit 1
            gdbus call --session --timeout 5 --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \\
              --method org.freedesktop.Secret.Service.ReadAlias default | grep -qv "'/'"
            """
        var isReady = false
        for _ in 0..<200 where keyring.isRunning {
            if try Shell.run(ready, account: account).status == 0 { isReady = true; break }
            usleep(50_000)
        }
        XCTAssertTrue(isReady, Shell.output(hb.dir, "keyring2").1)
        try hb.ok("add", "after", "--hostname", "after.example", "--password-stdin", stdin: "pw-after\n")
        XCTAssertEqual(try campaign.passwords(ofHost: "after"), ["pw-after"])
        // The killed keyring took `before`'s password with it: doctor says so, with the fix.
        let missing = try campaign.findings()
        XCTAssertEqual(missing.map { $0["check"] }, ["vault.missing"], "\(missing)")
        XCTAssertTrue(missing.first?["fix"]?.contains("hostbook edit before --password-stdin") == true, "\(missing)")
    }
}
