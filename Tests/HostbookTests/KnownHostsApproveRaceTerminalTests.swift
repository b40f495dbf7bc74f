// `known-hosts approve` on a real terminal while another process changes the store: the
// prompt for an unknown key is up, a second hostbook stores a different key for the same
// host, and then the user answers yes. The approval decides again inside its write
// transaction, finds the key changed, writes nothing, and asks again about the new state
// (the changed-key warning showing the key the other process stored), as docs/known-hosts.md says.
import Foundation
import TestSupport
import XCTest

final class KnownHostsApproveRaceTerminalTests: XCTestCase, TestHostKeys {

    var tmp: TemporaryDirectory!
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("needs util-linux script for a pseudo-terminal") }
        tmp = try TemporaryDirectory()
        // The database exists before the race, so the second process only adds an entry.
        XCTAssertEqual(try hostbook(["known-hosts", "approve", "other.test", "--key", keyB, "--yes"]).status, 0)
    }

    func hostbook(_ args: [String]) throws -> HostbookResult {
        try HostbookProcess.run(["--db", db] + args, environment: ["HOME": tmp.path])
    }

    func status(_ key: String) throws -> Int32 { try hostbook(["known-hosts", "check", "h.test", "--key", key]).status }

    /// Starts the approval of key A, waits for its prompt, and has another process approve
    /// key B for the same host meanwhile.
    func approvalInterruptedByAnotherKey() throws -> ScriptedTerminal {
        let t = try ScriptedTerminal(["--db", db, "known-hosts", "approve", "h.test", "--key", keyA])
        t.expect("Are you sure you want to trust this key (yes/no/[fingerprint])? ")
        let other = try hostbook(["known-hosts", "approve", "h.test", "--key", keyB, "--yes"])
        XCTAssertEqual(other.status, 0, "the other process is not blocked by the open prompt: \(other.stderr)")
        XCTAssertEqual(try status(keyB), 0)
        t.send("yes")
        // Nothing was written for A; the new state is shown: key B is stored, A is a change.
        t.expect("the stored keys for 'h.test' changed while you decided (now: changed); nothing was written; asking again")
        t.expect("WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!")
        t.expect("has the fingerprint")
        t.expect(fpA)
        t.expect(fpB)
        t.expect("To replace the stored key, type the new key's fingerprint (anything else keeps the stored key): ")
        return t
    }

    func testTheYesIsNotAppliedAndTheNewStateIsAskedAbout() throws {
        let t = try approvalInterruptedByAnotherKey()
        t.send("yes")   // "yes" does not replace a changed key
        t.expect("the host key for 'h.test' has changed; the stored key was kept")
        XCTAssertEqual(t.finish(), 11, t.transcript)
        XCTAssertEqual(try status(keyB), 0, "the other process's key stays trusted")
        XCTAssertEqual(try status(keyA), 11, "A was not trusted beside B")
        let list = try hostbook(["known-hosts", "list", "h.test", "--json"])
        XCTAssertEqual(list.stdout.components(separatedBy: "\"fingerprint\"").count - 1, 1, list.stdout)
        XCTAssertTrue(list.stdout.contains(fpB), list.stdout)
    }

    func testTypingTheNewFingerprintAtTheSecondPromptReplaces() throws {
        let t = try approvalInterruptedByAnotherKey()
        t.send(fpA)
        t.expect("Replaced: the ED25519 key \(fpA) is now trusted for 'h.test'.")
        XCTAssertEqual(t.finish(), 0, t.transcript)
        XCTAssertEqual(try status(keyA), 0)
        XCTAssertEqual(try status(keyB), 11, "B was replaced, not kept beside A")
    }
}
