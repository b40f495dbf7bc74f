// The interactive side of `hostbook keys`: passphrase prompts without echo, three tries on
// a wrong passphrase (like ssh-keygen), confirmation before removing, the export passphrase
// asked twice. Runs hostbook on a pseudo-terminal with util-linux `script`.
import Foundation
import XCTest

final class KeysTerminalTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("testkeys/openssh")
    static let passphrase = "hostbook-test-passphrase"

    var tmp: TemporaryDirectory!
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("util-linux 'script' is not installed") }
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
        tmp = try TemporaryDirectory()
    }

    override func tearDown() { tmp = nil }

    func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    func testWrongPassphraseThenRightOneOnTheTerminal() throws {
        let path = fixture("ed25519_aes256-ctr")
        let t = try ScriptedTerminal(["keys", "import", path, "--db", db])
        t.expect("Passphrase for '\(path)': ")
        t.send("not it")
        t.expect("Incorrect passphrase, try again.")
        t.expect("Passphrase for '\(path)': ")
        t.send(Self.passphrase)
        t.expect("Imported key 'ed25519_aes256-ctr': ")
        XCTAssertEqual(t.finish(), 0, t.transcript)
        XCTAssertFalse(t.transcript.contains(Self.passphrase), "the passphrase must not be echoed")
        XCTAssertFalse(t.transcript.contains("not it"), "the passphrase must not be echoed")
    }

    func testThreeWrongPassphrasesExit6() throws {
        let path = fixture("ecdsa256_aes256-ctr")
        let t = try ScriptedTerminal(["keys", "import", path, "--db", db])
        for attempt in 1...3 {
            t.expect("Passphrase for '\(path)': ")
            t.send("wrong \(attempt)")
        }
        t.expect("hostbook: incorrect passphrase for '\(path)'\nCheck the passphrase and try again; nothing was stored.\n".replacingOccurrences(of: "\n", with: "\r\n"))
        XCTAssertEqual(t.finish(), 6)
        XCTAssertEqual(t.transcript.components(separatedBy: "Incorrect passphrase, try again.").count - 1, 2)
        XCTAssertEqual(try HostbookProcess.run(["keys", "list", "--json", "--db", db]).stdout, "[]\n")
    }

    func testRemoveAsksFirst() throws {
        XCTAssertEqual(try HostbookProcess.run(["keys", "import", fixture("ed25519_none"), "--name", "k", "--db", db]).status, 0)
        let no = try ScriptedTerminal(["keys", "remove", "k", "--db", db])
        no.expect("Remove key 'k' (")
        no.expect("and its private key? [y/N] ")
        no.send("n")
        no.expect("hostbook: cancelled; key 'k' was not removed")
        XCTAssertEqual(no.finish(), 1)
        let yes = try ScriptedTerminal(["keys", "remove", "k", "--db", db])
        yes.expect("[y/N] ")
        yes.send("y")
        yes.expect("Removed key 'k' (")
        XCTAssertEqual(yes.finish(), 0)
        XCTAssertEqual(try HostbookProcess.run(["keys", "list", "--json", "--db", db]).stdout, "[]\n")
    }

    func testExportAsksForThePassphraseTwice() throws {
        XCTAssertEqual(try HostbookProcess.run(["keys", "import", fixture("ed25519_none"), "--name", "k", "--db", db]).status, 0)
        let mismatch = try ScriptedTerminal(["keys", "export", "k", "--output", tmp.file("out"), "--db", db])
        mismatch.expect("New passphrase for the exported key: ")
        mismatch.send("one")
        mismatch.expect("Repeat the passphrase: ")
        mismatch.send("two")
        mismatch.expect("hostbook: the two passphrases do not match; nothing was exported")
        XCTAssertEqual(mismatch.finish(), 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("out")))

        let ok = try ScriptedTerminal(["keys", "export", "k", "--output", tmp.file("out"), "--rounds", "2", "--db", db])
        ok.expect("New passphrase for the exported key: ")
        ok.send("same")
        ok.expect("Repeat the passphrase: ")
        ok.send("same")
        ok.expect("Wrote the private key of 'k' to ")
        XCTAssertEqual(ok.finish(), 0)
        XCTAssertEqual(try ToolProcess.sshKeygen(["-y", "-P", "same", "-f", tmp.file("out")]).stdout, try String(contentsOfFile: fixture("ed25519_none.pub"), encoding: .utf8))
    }
}
