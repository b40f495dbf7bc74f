// Every way the Secret Service can be unusable, each on a D-Bus session of its own (a locked
// or frozen keyring must never be the shared one other test processes use). The vault calls
// run in the vault-probe helper, whose environment points at that session.
import Foundation
import TestSupport
import XCTest

final class VaultFailureTests: XCTestCase {
    let database = "test-" + UUID().uuidString
    var session: PrivateSession?

    override func tearDown() {
        session?.close()
        session = nil
    }

    func start(_ keyring: PrivateSession.Keyring) throws -> PrivateSession {
        let started = try PrivateSession(keyring: keyring)
        session = started
        return started
    }

    func testNoSessionBus() throws {
        // No bus address, no X11 display to autolaunch one, no $XDG_RUNTIME_DIR/bus.
        let noBus = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR"]
        let status = try VaultProbe.run(["status"], database: database, removing: noBus)
        XCTAssertEqual(status.stdout, "no-session-bus\n")
        XCTAssertEqual(status.stderr, "error noSessionBus: no D-Bus session bus, so the keyring cannot be reached "
                       + "(Cannot autolaunch D-Bus without X11 $DISPLAY)\n")
        XCTAssertEqual(status.status, 1)
        for command in [["lookup", "password", "u1"], ["delete", "password", "u1"]] {
            let result = try VaultProbe.run(command, database: database, removing: noBus)
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.hasPrefix("error noSessionBus: no D-Bus session bus"), result.stderr)
        }
        let store = try VaultProbe.run(["store", "password", "u1"], database: database, stdin: Data("pw".utf8), removing: noBus)
        XCTAssertTrue(store.stderr.hasPrefix("error noSessionBus: "), store.stderr)
    }

    func testABusAddressNothingAnswersAt() throws {
        let result = try VaultProbe.run(["status"], database: database,
                                        environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/hostbook-bus"])
        XCTAssertEqual(result.stdout, "no-session-bus\n")
        XCTAssertTrue(result.stderr.hasPrefix("error noSessionBus: the D-Bus session bus does not answer, so the keyring cannot be reached ("),
                      result.stderr)
    }

    func testNoSecretServiceOnTheBus() throws {
        let session = try start(.none)
        let status = try VaultProbe.run(["status"], database: database, environment: session.environment)
        XCTAssertEqual(status.stdout, "no-service\n")
        XCTAssertEqual(status.stderr, "error noService: no Secret Service on the D-Bus session bus (nothing provides org.freedesktop.secrets)\n")
        let lookup = try VaultProbe.run(["lookup", "password", "u1"], database: database, environment: session.environment)
        XCTAssertEqual(lookup.status, 1)
        XCTAssertTrue(lookup.stderr.hasPrefix("error noService: "), lookup.stderr)
    }

    func testAServiceWithoutADefaultCollection() throws {
        let session = try start(.withoutLogin)
        let status = try VaultProbe.run(["status"], database: database, environment: session.environment)
        XCTAssertEqual(status.stdout, "no-default-collection\nservice gnome-keyring-daemon\n")
        XCTAssertEqual(status.stderr, "error noDefaultCollection: gnome-keyring-daemon has no default keyring\n")
        let store = try VaultProbe.run(["store", "password", "u1"], database: database, stdin: Data("pw".utf8),
                                       environment: session.environment)
        XCTAssertEqual(store.status, 1)
        XCTAssertEqual(store.stderr, "error noDefaultCollection: gnome-keyring-daemon has no default keyring\n")
    }

    func testALockedCollectionIsReportedNotTakenForEmpty() throws {
        let session = try start(.unlocked)
        let env = session.environment
        let store = try VaultProbe.run(["store", "password", "u1"], database: database, stdin: Data("pw".utf8), environment: env)
        XCTAssertEqual(store.stdout, "stored\n", store.stderr)
        XCTAssertEqual(try VaultProbe.run(["lookup", "password", "u1"], database: database, environment: env).stdout, "7077\n")

        try session.lockDefaultCollection()

        let status = try VaultProbe.run(["status"], database: database, environment: env)
        XCTAssertEqual(status.stdout, "locked\nservice gnome-keyring-daemon\ncollection login\n")
        XCTAssertEqual(status.stderr, "error locked: the default keyring of gnome-keyring-daemon is locked\n")
        for command in [["lookup", "password", "u1"], ["delete", "password", "u1"], ["lookup", "password", "missing"]] {
            let result = try VaultProbe.run(command, database: database, environment: env)
            XCTAssertEqual(result.status, 1, "\(command)")
            XCTAssertEqual(result.stdout, "", "\(command)")
            XCTAssertEqual(result.stderr, "error locked: the default keyring of gnome-keyring-daemon is locked\n", "\(command)")
        }
        let replace = try VaultProbe.run(["store", "password", "u1"], database: database, stdin: Data("new".utf8), environment: env)
        XCTAssertEqual(replace.stderr, "error locked: the default keyring of gnome-keyring-daemon is locked\n")
    }

    /// Calls on a frozen keyring with deadlines of 0.25 s, 3 s and 7.5 s, started together
    /// in that order, end in the order of their deadlines: the 3 s call waits for its
    /// deadline (it ends after the 0.25 s one) and gives up at it, not at D-Bus's 25 s (it
    /// ends before the 7.5 s one). Ordered, not timed: the gaps (2.75 s, 4.5 s) are wider
    /// than nine probes' start-up can drift apart on a busy machine (1.25 s did not hold
    /// there: a 0.25 s call whose process started late ended after the 1.5 s one). The
    /// three commands' calls all wait at once (one 7.5 s wait for the test, not one per
    /// command); each command's three are ordered among themselves.
    func testAServiceThatDoesNotAnswerCostsOnlyTheDeadline() throws {
        let session = try start(.unlocked)
        let env = session.environment
        session.freezeKeyring()
        defer { session.thawKeyring() }
        let commands = [["status"], ["lookup", "password", "u1"], ["store", "password", "u1"]]
        let deadlines = [250, 3000, 7500]
        let started = try commands.flatMap { command in
            try deadlines.map {
                try VaultProbe.start(command, database: database, timeoutMilliseconds: $0, stdin: Data("pw".utf8), environment: env)
            }
        }
        let ending = VaultProbe.endingOrder(started)
        for (c, command) in commands.enumerated() {
            let mine = c * deadlines.count ..< (c + 1) * deadlines.count
            let probes = Array(started[mine])
            XCTAssertEqual(ending.filter { mine.contains($0) }.map { $0 - mine.lowerBound }, [0, 1, 2],
                           "\(command): the calls end in the order of their deadlines")
            let results = probes.map { $0.wait() }
            XCTAssertEqual(results.map(\.status), [1, 1, 1], "\(command)")
            XCTAssertTrue(results[1].stderr.hasPrefix("error timedOut: the Secret Service (gnome-keyring-daemon) did not answer within 3 s"),
                          "\(command): \(results[1].stderr)")
            for r in results { XCTAssertTrue(r.stderr.hasPrefix("error timedOut: "), "\(command): \(r.stderr)") }
        }
        session.thawKeyring()
        XCTAssertEqual(try VaultProbe.run(["status"], database: database, environment: env).stdout, "ok\nservice gnome-keyring-daemon\ncollection login\n")
    }

    func testHOSTBOOK_VAULT_TIMEOUTSetsTheDeadlineAndWithoutATerminalItIs5s() throws {
        let session = try start(.unlocked)
        session.freezeKeyring()
        defer { session.thawKeyring() }
        for (timeout, words) in [("1.5", "1.5 s"), (nil, "5 s")] {
            var env = session.environment
            if let timeout { env["HOSTBOOK_VAULT_TIMEOUT"] = timeout }
            let result = try VaultProbe.runDefaultDeadline(["status"], database: database, environment: env,
                                                           removing: timeout == nil ? ["HOSTBOOK_VAULT_TIMEOUT"] : [])
            XCTAssertEqual(result.stderr, "error timedOut: the Secret Service (gnome-keyring-daemon) did not answer within \(words)\n")
            XCTAssertEqual(result.stdout, "timed-out\nservice gnome-keyring-daemon\n")
        }
    }

    func testOnATerminalItSaysWhatItWaitsForAndWaits60s() throws {
        // The keyring answers only after a run without a terminal, started once the one on a
        // terminal says it waits, has given up at its 5 s: on a terminal the call waits past
        // that, says so after a second, and succeeds once the keyring answers.
        let session = try start(.unlocked)
        session.freezeKeyring()
        defer { session.thawKeyring() }
        let onTerminal = try VaultProbe.startOnATerminal(["status"], database: database, environment: session.environment,
                                                         removing: ["HOSTBOOK_VAULT_TIMEOUT"])
        XCTAssertTrue(onTerminal.waitForOutput("giving up after 60 s"), onTerminal.stdoutSoFar)
        let plain = try VaultProbe.runDefaultDeadline(["status"], database: database, environment: session.environment,
                                                      removing: ["HOSTBOOK_VAULT_TIMEOUT"])
        XCTAssertEqual(plain.stderr, "error timedOut: the Secret Service (gnome-keyring-daemon) did not answer within 5 s\n")
        XCTAssertTrue(onTerminal.isRunning, "the call on a terminal still waits when the one without has given up")
        session.thawKeyring()
        let result = onTerminal.wait()
        XCTAssertEqual(result.stdout.replacingOccurrences(of: "\r\n", with: "\n"),
                       "vault-probe: waiting for gnome-keyring-daemon; giving up after 60 s\nok\nservice gnome-keyring-daemon\ncollection login\n")
    }

    /// The notice is told the program that owns the Secret Service by its executable's name,
    /// which anyone can choose: as it is (the executable's VaultWaitLine escapes it, never
    /// printing it as terminal control: issue 23, HostbookLogicTests/VaultWaitLineTests).
    func testTheWaitNoticeIsToldTheServicesOwnName() throws {
        let temp = try TempFolder()
        let folder = temp.url
        let program = folder.appendingPathComponent("keyring\u{1b}[31m").path
        try FileManager.default.copyItem(atPath: "/usr/bin/gnome-keyring-daemon", toPath: program)
        let started = try PrivateSession(keyring: .unlocked, program: program)
        session = started
        started.freezeKeyring()
        defer { started.thawKeyring() }
        let probe = try VaultProbe.startOnATerminal(["status"], database: database, environment: started.environment,
                                                    removing: ["HOSTBOOK_VAULT_TIMEOUT"])
        // The keyring answers once the notice is shown.
        XCTAssertTrue(probe.waitForOutput("giving up after 60 s"), probe.stdoutSoFar)
        started.thawKeyring()
        let result = probe.wait()
        let shown = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        XCTAssertTrue(shown.hasPrefix("vault-probe: waiting for keyring\u{1b}[31m; giving up after 60 s\nok\n"), shown)
    }

    /// As for a frozen keyring: calls with deadlines 0.25 s, 1.5 s and 4.5 s end in that order.
    func testABusThatDoesNotAnswerCostsOnlyTheDeadline() throws {
        let session = try start(.unlocked)
        session.freezeBus()
        defer { session.thawBus() }
        let probes = try [250, 1500, 4500].map {
            try VaultProbe.start(["lookup", "password", "u1"], database: database, timeoutMilliseconds: $0, environment: session.environment)
        }
        XCTAssertEqual(VaultProbe.endingOrder(probes), [0, 1, 2], "the calls end in the order of their deadlines")
        let result = probes[1].wait()
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "error timedOut: the Secret Service did not answer within 1.5 s\n")
    }
}

/// KeePassXC's own states, each in a KeePassXC of its own (scripts/with-keepassxc with a
/// private bus, X display, database and settings), whichever backend the test run uses.
final class KeePassXCStateTests: XCTestCase {
    let database = "test-" + UUID().uuidString

    func probe(_ state: String, _ commands: String..., timeout: Int = 5000, stdin: String = "") throws -> ProbeResult {
        // One KeePassXC for several probe calls: sh runs them in turn, stdout and stderr in order.
        let script = commands.map { "\"$PROBE\" \"$DB\" \(timeout) \($0)" }.joined(separator: "; ")
        return try VaultProbe.run([], database: database, stdin: Data(stdin.utf8),
                                  launcher: [VaultProbe.script("with-keepassxc")] + (state.isEmpty ? [] : [state])
                                      + ["sh", "-c", "PROBE=$0 DB=$1; \(script)"])
    }

    func testJustStartedItIsNotTakenForLocked() throws {
        // KeePassXC owns the bus name before it has unlocked its database: the first call
        // comes in that moment, and must see the unlocked database, not "locked".
        let result = try probe("--starting", "status")
        XCTAssertEqual(result.stdout, "ok\nservice keepassxc\ncollection secrets\n", result.stderr)
        XCTAssertEqual(result.stderr, "")
    }

    func testOnATerminalALockedDatabaseRaisesKeePassXCsUnlockDialog() throws {
        // Someone at a terminal can unlock the database: hostbook asks KeePassXC to, says what
        // it waits for, and gives up at the deadline (KeePassXC keeps its dialog open).
        let probe = VaultProbe.binaryURL.path
        let script = """
            sleep 5   # past KeePassXC's start-up, when hostbook waits for its own unlock
            windows() { xwininfo -display "$HOSTBOOK_KEEPASSXC_DISPLAY" -root -tree | grep -c '"Unlock Database - KeePassXC"'; }
            echo "dialogs before: $(windows)"
            HOSTBOOK_VAULT_TIMEOUT=3 script -qec "$PROBE $DB - lookup password u1" /dev/null | tr -d '\\r'
            echo "dialogs after: $(windows)"
            """
        let result = try VaultProbe.run([], database: database, launcher: [VaultProbe.script("with-keepassxc"), "--locked",
                                                                            "sh", "-c", "PROBE=\(probe) DB=$1; \(script)"])
        XCTAssertEqual(result.stdout, """
            dialogs before: 0
            vault-probe: waiting for keepassxc; giving up after 3 s
            error timedOut: the Secret Service (keepassxc) did not answer within 3 s
            dialogs after: 1

            """, result.stderr)
    }

    func testALockedDatabaseIsReportedInKeePassXCsWords() throws {
        let result = try probe("--locked", "status", "store password u1", "lookup password u1", stdin: "pw")
        let locked = "error locked: the database keepassxc offers as the default keyring is locked\n"
        // The collection has the same name as when unlocked (JSON `collection`).
        XCTAssertEqual(result.stdout, "locked\nservice keepassxc\ncollection secrets\n")
        XCTAssertEqual(result.stderr, locked + locked + locked)
    }

    func testADatabaseWithoutAnExposedGroupIsNoDefaultCollection() throws {
        // For its first moments KeePassXC offers the database anyway, then withdraws it (once
        // it has found no exposed group): the state that lasts is checked.
        let result = try probe("--no-group", "status >/dev/null 2>&1; sleep 3; \"$PROBE\" \"$DB\" 5000 status",
                               "store password u1", stdin: "pw")
        let none = "error noDefaultCollection: keepassxc offers no database over the Secret Service\n"
        XCTAssertEqual(result.stdout, "no-default-collection\nservice keepassxc\n")
        XCTAssertEqual(result.stderr, none + none)
    }
}
