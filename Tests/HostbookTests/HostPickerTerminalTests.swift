// The host picker of `hostbook ssh` on a pseudo-terminal that is hostbook's controlling
// terminal (WindowedTerminal.Session): typed filters and arrow keys, Enter connecting
// through the real ssh to a private sshd exactly as `hostbook ssh NAME` does, Esc, Ctrl-C
// and signals from outside leaving without a connection; after every exit the terminal's
// settings are what they were before. Without a terminal a missing HOST is a usage error.
import Foundation
import Glibc
import TestSupport
import XCTest

final class HostPickerTerminalTests: XCTestCase {
    static let prompt = "hostbook ssh> "

    /// The terminal is cooked again: the same input, output and local modes as before
    /// hostbook started, echo and canonical input on.
    func assertRestored(_ term: WindowedTerminal.Session, file: StaticString = #filePath, line: UInt = #line) {
        let before = term.initialSettings, after = term.settings
        XCTAssertEqual(after.c_lflag, before.c_lflag, "local modes", file: file, line: line)
        XCTAssertEqual(after.c_iflag, before.c_iflag, "input modes", file: file, line: line)
        XCTAssertEqual(after.c_oflag, before.c_oflag, "output modes", file: file, line: line)
        XCTAssertNotEqual(after.c_lflag & tcflag_t(ECHO), 0, "echo is on", file: file, line: line)
        XCTAssertNotEqual(after.c_lflag & tcflag_t(ICANON), 0, "canonical input is on", file: file, line: line)
        // The main screen is back and the cursor shows: the last thing drawn.
        let shown = term.transcript
        guard let left = shown.range(of: "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l", options: .backwards) else {
            return XCTFail("the alternate screen was not left: \(shown)", file: file, line: line)
        }
        XCTAssertFalse(shown[left.upperBound...].contains("\u{1B}[?25l"), "nothing hides the cursor afterwards", file: file, line: line)
    }

    /// A bed with a key in the vault, a private sshd that accepts it, and hosts:
    /// `web-a` (nothing listens on its port), `web-b` (the sshd) and `db` (the sshd).
    func connectableBed() throws -> (SSHTestBed, PrivateSSHD) {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web-a", "--hostname", "127.0.0.1", "--port", "1", "--user", "root", "--key", "k", "--tag", "prod")
        try bed.fx.ok("add", "web-b", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k", "--tag", "prod")
        try bed.fx.ok("add", "db", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k", "--tag", "data")
        try bed.trust(sshd)
        try bed.fx.ok("snippets", "add", "whoami", "--command", "echo picked-$((6*7)) as $(id -un) on port ${SSH_CONNECTION##* }")
        return (bed, sshd)
    }

    func session(_ bed: SSHTestBed, _ args: [String], columns: Int = 80, rows: Int = 24, noColor: Bool = false) throws -> WindowedTerminal.Session {
        var env = bed.fx.environment
        if !noColor { env.removeValue(forKey: "NO_COLOR") }
        return try WindowedTerminal.Session(["ssh"] + args, columns: columns, rows: rows, environment: env, account: bed.fx.account)
    }

    func testTypingAFilterThenEnterConnectsThroughTheRealSSH() throws {
        let (bed, sshd) = try connectableBed()
        let term = try session(bed, ["--snippet", "whoami"])
        term.expect(Self.prompt)
        term.expect("3/3")
        term.type("DA")                 // case-insensitive: matches the tag "data" only
        term.expect("1/3")
        term.type("\r")
        term.expect("picked-42 as root on port \(sshd.port)")
        XCTAssertEqual(term.finish(), 0, term.transcript + sshd.log)
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root"), sshd.log)
        assertRestored(term)
        try bed.assertNothingLeft()
    }

    func testArrowsSelectTheSecondMatch() throws {
        let (bed, sshd) = try connectableBed()
        // Interactive: no snippet, ssh gets the terminal and the remote shell reads what is typed.
        let term = try session(bed, [])
        term.expect(Self.prompt)
        term.type("web")
        term.expect("2/3")
        term.type("\u{1B}[B")           // Down: web-b, the second match (web-a would be refused)
        term.expect("> web-b")
        term.type("\r")
        term.expect("\u{1B}[?1049l")    // the picker is gone before ssh starts
        // Typed once the remote shell runs (sshd logs its start), not into the picker's flush.
        XCTAssertTrue(sshd.waitForLog("Starting session: shell"), sshd.log)
        term.type("echo shell-$((40+2)); exit 5\n")
        term.expect("shell-42")
        XCTAssertEqual(term.finish(), 5, term.transcript + sshd.log)
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root"), sshd.log)
        assertRestored(term)
    }

    func testCtrlNAndCtrlPMoveToo() throws {
        let (bed, sshd) = try connectableBed()
        let term = try session(bed, ["--snippet", "whoami"])
        term.expect(Self.prompt)
        // Sorted by name: db, web-a, web-b. Down past the end, up to web-a, down to web-b.
        term.type("\u{0E}\u{0E}\u{0E}\u{0E}")
        term.expect("> web-b")
        term.type("\u{10}")
        term.expect("> web-a")
        term.type("\u{0E}")
        term.expect("> web-b")
        term.type("\r")
        term.expect("picked-42 as root on port \(sshd.port)")
        XCTAssertEqual(term.finish(), 0, term.transcript)
        assertRestored(term)
    }

    /// hosts that point at an sshd, which must see no connection at all.
    func leavingBed() throws -> (SSHTestBed, PrivateSSHD) {
        let bed = try SSHTestBed()
        let sshd = try PrivateSSHD()
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root")
        try bed.fx.ok("add", "db", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root")
        return (bed, sshd)
    }

    /// Connections sshd has logged (its start-up check that it listens is one).
    static func connections(_ sshd: PrivateSSHD) -> Int { sshd.log.components(separatedBy: "Connection from").count - 1 }

    func testEscAndCtrlCLeaveWithoutConnectingWithExit130() throws {
        for key in ["\u{1B}", "\u{03}", "\u{07}"] {
            let (bed, sshd) = try leavingBed()
            let connections = Self.connections(sshd)
            let noColor = key == "\u{07}"
            let term = try session(bed, [], noColor: noColor)
            term.expect(Self.prompt)
            term.type("w")
            term.expect("1/2")
            term.type(key)
            XCTAssertEqual(term.finish(), 130, "\(key.unicodeScalars.first!.value): " + term.transcript)
            assertRestored(term)
            XCTAssertFalse(term.transcript.contains("hostbook:"), "leaving prints nothing: \(term.transcript)")
            XCTAssertTrue(term.transcript.contains("> web"), "the selection is marked either way")
            XCTAssertEqual(term.transcript.contains("\u{1B}[7m"), !noColor, "reverse video only without NO_COLOR")
            // hostbook has ended; a marker connection logged after anything it could have started
            // makes the count final: one more than before, the marker's.
            XCTAssertTrue(sshd.logMarkerConnection(), sshd.log)
            XCTAssertEqual(Self.connections(sshd), connections + 1, "no connection: " + sshd.log)
        }
    }

    func testSignalsFromOutsideRestoreTheTerminalThenExit128PlusTheSignal() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, 129), (SIGINT, 130), (SIGQUIT, 131)] {
            let (bed, sshd) = try leavingBed()
            let connections = Self.connections(sshd)
            let term = try session(bed, [])
            term.expect(Self.prompt)
            XCTAssertEqual(try String(contentsOfFile: "/proc/\(term.pid)/comm", encoding: .utf8), "hostbook\n")
            XCTAssertEqual(term.settings.c_lflag & tcflag_t(ECHO | ICANON), 0, "raw while the picker is up")
            kill(term.pid, signal)
            XCTAssertEqual(term.finish(), status, "signal \(signal): " + term.transcript)
            assertRestored(term)
            XCTAssertEqual(Self.connections(sshd), connections, "no connection: " + sshd.log)
        }
    }

    /// The terminal going away (its window closed) ends the picker at once, without a
    /// connection: by the hang-up signal (129), or, if the read sees the end first, exit 1.
    func testTheEndOfTheTerminalEndsThePicker() throws {
        let (bed, sshd) = try leavingBed()
        let connections = Self.connections(sshd)
        let term = try session(bed, [])
        term.expect(Self.prompt)
        term.hangUp()
        // It ends by itself: a picker the test had to kill at finish's bound would show SIGKILL (9).
        let status = term.finish(timeout: 10)
        XCTAssertTrue([129, 1].contains(status), "\(status)")
        XCTAssertEqual(Self.connections(sshd), connections, "no connection: " + sshd.log)
    }

    func testTheListScrollsAndFollowsAResize() throws {
        let bed = try SSHTestBed()
        for i in 0..<30 {
            try bed.fx.ok("add", String(format: "host-%02d-with-a-rather-long-name", i), "--hostname", "10.1.0.\(i)", "--user", "root")
        }
        let term = try session(bed, [], columns: 100, rows: 10)
        term.expect(Self.prompt)
        term.expect("30/30")
        XCTAssertFalse(term.transcript.contains("host-07"), "only 7 rows fit")
        for _ in 0..<12 { term.type("\u{1B}[B") }
        term.expect("> host-12-with-a-rather-long-name")
        term.resize(columns: 40, rows: 10)
        // Redrawn for 40 columns: the long names are cut.
        term.expect("> host-12-")
        term.expect("…")
        term.type("\u{1B}")
        XCTAssertEqual(term.finish(), 130)
        // The last frame's lines all fit 40 columns.
        let frames = term.transcript.components(separatedBy: "\u{1B}[?25l\u{1B}[H")
        let last = TerminalScreen.visibleLines(frames.last!.components(separatedBy: "\u{1B}[?1049l").first!)
        for line in last { XCTAssertLessThan(line.count, 40, line) }
        assertRestored(term)
    }

    func testWithoutATerminalAMissingHostIsAUsageError() throws {
        let bed = try SSHTestBed()
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1")
        let hint = "Give the host's name: 'hostbook ssh HOST' ('hostbook list' shows them).\n"
        try bed.fx.fails(["ssh"], status: 2,
                         stderr: "hostbook: missing HOST for 'hostbook ssh': the host picker needs a terminal on stdin and stdout\n" + hint)
        try bed.fx.fails(["ssh", "--snippet", "x"], status: 2,
                         stderr: "hostbook: missing HOST for 'hostbook ssh': the host picker needs a terminal on stdin and stdout\n" + hint)
        // stdin a terminal, stdout a pipe.
        let piped = try WindowedTerminal.run(["ssh"], columns: 80, onTerminal: [.stderr], environment: bed.fx.environment, account: bed.fx.account)
        XCTAssertEqual(piped.status, 2)
        XCTAssertEqual(piped.stdout, "")
        XCTAssertTrue(piped.screen.contains("the host picker needs a terminal on stdin and stdout"), piped.screen)
        // A terminal, but --no-input.
        let noInput = try WindowedTerminal.run(["ssh", "--no-input"], columns: 80, onTerminal: [.stdout, .stderr], environment: bed.fx.environment, account: bed.fx.account)
        XCTAssertEqual(noInput.status, 2)
        XCTAssertEqual(noInput.screen.replacingOccurrences(of: "\r\n", with: "\n"),
                       "hostbook: missing HOST for 'hostbook ssh': --no-input turns the host picker off\n" + hint)
    }

    func testNoSavedHostsIsOneLineAndNoPicker() throws {
        let bed = try SSHTestBed()
        let r = try WindowedTerminal.run(["ssh"], columns: 80, onTerminal: [.stdout, .stderr], environment: bed.fx.environment, account: bed.fx.account)
        XCTAssertEqual(r.status, 4)
        XCTAssertEqual(r.screen, "hostbook: no saved hosts to pick from; add one with 'hostbook add NAME --hostname H'\r\n")
    }
}
