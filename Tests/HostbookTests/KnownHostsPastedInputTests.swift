// `--key` as people paste it, taken from real ssh-keyscan against a private sshd, and scan of
// that sshd, with the real binary. Pasted lines of other shapes and failed scans run
// in-process: HostbookLogicTests/KnownHostsPastedInputLogicTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class KnownHostsPastedInputTests: XCTestCase, TestHostKeys {
    var tmp: TemporaryDirectory!
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    func hb(_ args: String...) throws -> HostbookResult { try HostbookProcess.run(args, environment: env) }

    /// Real ssh-keyscan output of a private sshd, pasted into --key, and scan itself.
    func testRealKeyscanOutputAndScanOfAPrivateSSHD() throws {
        let sshd = try PrivateSSHD()
        defer { sshd.stop() }
        let scan = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/ssh-keyscan"), ["-t", "ed25519", "-p", String(sshd.port), "127.0.0.1"])
        let line = try XCTUnwrap(scan.stdout.split(separator: "\n").first.map(String.init), scan.stderr)
        XCTAssertTrue(line.hasPrefix("[127.0.0.1]:\(sshd.port) ssh-ed25519 "), line)
        var r = try hb("known-hosts", "approve", "127.0.0.1", "--port", String(sshd.port), "--key", line, "--yes")
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb("known-hosts", "check", "127.0.0.1", "--port", String(sshd.port), "--key", try sshd.publicKey())
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb("known-hosts", "check", "localhost", "--port", String(sshd.port), "--key", line)
        XCTAssertEqual(r.status, 2, r.stderr)
        // `ssh-keyscan -H` hashes the host field; it is matched against HOST like ssh does.
        let hashed = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/ssh-keyscan"), ["-H", "-t", "ed25519", "-p", String(sshd.port), "127.0.0.1"])
        let hashedLine = try XCTUnwrap(hashed.stdout.split(separator: "\n").first.map(String.init), hashed.stderr)
        XCTAssertTrue(hashedLine.hasPrefix("|1|"), hashedLine)
        r = try hb("known-hosts", "check", "127.0.0.1", "--port", String(sshd.port), "--key", hashedLine)
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb("known-hosts", "check", "127.0.0.2", "--port", String(sshd.port), "--key", hashedLine)
        XCTAssertEqual(r.status, 2, r.stderr)
        // scan: ssh-keyscan's banner lines on its stderr are not passed through.
        r = try hb("known-hosts", "scan", "127.0.0.1", "--port", String(sshd.port))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, "trusted: ED25519 key \(try fingerprint(sshd.publicKey()))\n")
    }

    func fingerprint(_ pub: String) throws -> String {
        let f = tmp.file("k.pub")
        try Data((pub + "\n").utf8).write(to: URL(fileURLWithPath: f))
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/ssh-keygen"), ["-l", "-f", f])
        return String(r.stdout.split(separator: " ")[1])
    }
}
