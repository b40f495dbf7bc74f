// `hostbook known-hosts scan` in-process (InProcessCommand runs Hostbook.main) against one
// private sshd for the class (the real ssh-keyscan fetches its keys), and `--key` as people
// paste it from the real ssh-keyscan's output. Moved from HostbookTests/KnownHostsCommandTests
// and KnownHostsPastedInputTests; the scan's prompts on a terminal stay there
// (KnownHostsPromptTests).
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KnownHostsScanLogicTests: XCTestCase {
    /// One sshd for every case of the class, stopped by its PID in tearDown.
    nonisolated(unsafe) static var sshd: PrivateSSHD?

    override class func setUp() {
        super.setUp()
        sshd = try? PrivateSSHD(hostKeyTypes: ["ed25519"])
    }

    override class func tearDown() {
        sshd?.stop()
        sshd = nil
        super.tearDown()
    }

    var hb: InProcessCommand!

    override func setUpWithError() throws {
        guard Self.sshd != nil else { throw XCTSkip("sshd did not start (openssh-server: scripts/setup)") }
        hb = try InProcessCommand()
    }

    override func tearDown() { hb = nil }

    var sshd: PrivateSSHD { Self.sshd! }

    /// The SHA-256 fingerprint ssh-keygen prints for a public key line.
    func sshKeygenFingerprint(_ line: String) throws -> String {
        let file = hb.dir.file("fp-\(UUID().uuidString).pub")
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let r = try Tool.run("/usr/bin/ssh-keygen", ["-l", "-f", file])
        return String(r.stdout.split(separator: " ")[1])
    }

    func testScanWithoutTerminal() throws {
        let key = try sshd.publicKeyTypeAndBlob()
        let port = String(sshd.port)
        try hb.fails(["known-hosts", "scan", "127.0.0.1", "--port", port], status: 3,
                     stderr: "hostbook: scan asks about new or changed keys but there is no terminal\n"
                        + "Check the fingerprint, then run 'hostbook known-hosts approve 127.0.0.1 --port \(port) --key '\(key)' --fingerprint \(try sshKeygenFingerprint(key))'.\n")
    }

    func testScanSavedHostNameUsesItsHostnameAndPort() throws {
        let key = try sshd.publicKeyTypeAndBlob()
        let port = String(sshd.port)
        try hb.ok("add", "web", "--hostname", "127.0.0.1", "--port", port)
        XCTAssertEqual(try hb.run("known-hosts", "scan", "web").status, 3)
        try hb.ok("known-hosts", "approve", "127.0.0.1", "--port", port, "--key", key, "--yes")
        let r = try hb.run("known-hosts", "scan", "web")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "trusted: ED25519 key \(try sshKeygenFingerprint(key))\n")
        XCTAssertEqual(r.stderr, "hostbook: 'web' is a saved host: using '127.0.0.1' port \(port)\n")
    }

    /// Real ssh-keyscan output of the private sshd, pasted into --key, and scan itself.
    func testRealKeyscanOutputAndScanOfAPrivateSSHD() throws {
        let port = String(sshd.port)
        let scan = try Tool.run("/usr/bin/ssh-keyscan", ["-t", "ed25519", "-p", port, "127.0.0.1"])
        let line = try XCTUnwrap(scan.stdout.split(separator: "\n").first.map(String.init), scan.stderr)
        XCTAssertTrue(line.hasPrefix("[127.0.0.1]:\(port) ssh-ed25519 "), line)
        var r = try hb.run("known-hosts", "approve", "127.0.0.1", "--port", port, "--key", line, "--yes")
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb.run("known-hosts", "check", "127.0.0.1", "--port", port, "--key", try sshd.publicKey())
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb.run("known-hosts", "check", "localhost", "--port", port, "--key", line)
        XCTAssertEqual(r.status, 2, r.stderr)
        // `ssh-keyscan -H` hashes the host field; it is matched against HOST like ssh does.
        let hashed = try Tool.run("/usr/bin/ssh-keyscan", ["-H", "-t", "ed25519", "-p", port, "127.0.0.1"])
        let hashedLine = try XCTUnwrap(hashed.stdout.split(separator: "\n").first.map(String.init), hashed.stderr)
        XCTAssertTrue(hashedLine.hasPrefix("|1|"), hashedLine)
        r = try hb.run("known-hosts", "check", "127.0.0.1", "--port", port, "--key", hashedLine)
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb.run("known-hosts", "check", "127.0.0.2", "--port", port, "--key", hashedLine)
        XCTAssertEqual(r.status, 2, r.stderr)
        // scan: ssh-keyscan's banner lines on its stderr are not passed through.
        r = try hb.run("known-hosts", "scan", "127.0.0.1", "--port", port)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, "trusted: ED25519 key \(try sshKeygenFingerprint(try sshd.publicKey()))\n")
    }
}
