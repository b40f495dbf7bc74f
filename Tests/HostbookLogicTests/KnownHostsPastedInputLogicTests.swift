// `--key` as people paste it (a .pub line, or ssh-keyscan's `host TYPE BASE64` line) and
// failed scans reported in one line (the name does not resolve, the connection was refused,
// it timed out), in-process (InProcessCommand runs Hostbook.main; scan runs the real
// ssh-keyscan). Moved from HostbookTests/KnownHostsPastedInputTests, which keeps real
// ssh-keyscan output of a private sshd.
import Foundation
@testable import hostbook
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class KnownHostsPastedInputLogicTests: XCTestCase, TestHostKeys {
    var cli: InProcessCommand!
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        cli = try InProcessCommand()
        env = ["HOSTBOOK_DB": cli.folder.file("hostbook.db"), "HOME": cli.folder.path]
    }
    override func tearDown() { cli = nil }

    func hb(_ args: String...) throws -> InProcessCommand.Outcome { try cli.call(args, environment: env) }

    func testKeyscanLineWithTheHostFirstAndPubLineAreTheSameKey() throws {
        var r = try hb("known-hosts", "approve", "h.test", "--key", "h.test \(keyA)", "--yes")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Approved: the ED25519 key \(fpA) is now trusted for 'h.test'.\n")
        // A .pub line with a comment, and the host field in another case, are the same key.
        r = try hb("known-hosts", "check", "h.test", "--key", keyA + " me@laptop")
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb("known-hosts", "check", "h.test", "--key", "H.Test \(keyA)")
        XCTAssertEqual(r.status, 0, r.stderr)
        // ssh-keyscan's banner comment and line ends, pasted along with the line.
        r = try hb("known-hosts", "check", "h.test", "--key", "# h.test:22 SSH-2.0-OpenSSH_9.2p1\nh.test \(keyA)\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        // `[host]:port` for another port.
        r = try hb("known-hosts", "revoke", "h.test", "--port", "2222", "--key", "[h.test]:2222 \(keyA)")
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try hb("known-hosts", "check", "h.test", "--port", "2222", "--key", keyA)
        XCTAssertEqual(r.status, 12, r.stdout)
    }

    func testAHostFieldForAnotherHostOrPortIsRefused() throws {
        for (field, expected) in [("other.test", "'other.test', not 'h.test'"), ("[h.test]:2222", "'[h.test]:2222', not 'h.test'")] {
            let r = try hb("known-hosts", "approve", "h.test", "--key", "\(field) \(keyA)", "--yes")
            XCTAssertEqual(r.status, 2, field)
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(r.stderr, "hostbook: the --key line is for \(expected)\n"
                           + "Scan the host you mean (ssh-keyscan -p PORT HOST), or give the key as \"TYPE BASE64\".\n")
        }
        let r = try hb("known-hosts", "check", "h.test", "--port", "2222", "--key", "h.test \(keyA)")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").first, "hostbook: the --key line is for 'h.test', not 'h.test' (port 2222)")
        // Nothing was written by the refusals.
        XCTAssertEqual(try hb("known-hosts", "list", "--json").stdout, "[]\n")
        // Two key lines are not one key; a marker line is not a key.
        let two = try hb("known-hosts", "check", "h.test", "--key", "h.test \(keyA)\nh.test \(keyA)")
        XCTAssertEqual(two.status, 2)
        XCTAssertTrue(two.stderr.hasPrefix("hostbook: --key holds 2 lines; give one key\n"), two.stderr)
        let marker = try hb("known-hosts", "check", "h.test", "--key", "@revoked h.test \(keyA)")
        XCTAssertEqual(marker.status, 2, marker.stderr)
    }

    func testRefusedConnectionIsOneLine() throws {
        let port = try closedPort()
        let r = try hb("known-hosts", "scan", "127.0.0.1", "--port", String(port))
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "hostbook: cannot scan '127.0.0.1' port \(port): the connection was refused\n"
                       + "Is an SSH server listening there? Give its port with --port N.\n")
    }

    /// Fast: the failure is the resolver's answer, not a scan that waited for a timeout.
    func testNameThatDoesNotResolveIsOneLineAndFast() throws {
        let r = try hb("known-hosts", "scan", "no-such-host.invalid")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.stderr)
        XCTAssertTrue(lines[0].hasPrefix("hostbook: cannot scan 'no-such-host.invalid': the name does not resolve ("), r.stderr)
        XCTAssertFalse(r.stderr.contains("getaddrinfo"), r.stderr)
        XCTAssertFalse(r.stderr.contains("timed out"), r.stderr)
    }

    /// A port that accepts connections and never sends the SSH banner.
    func testSilentPortTimesOut() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        XCTAssertEqual(listen(fd, 8), 0)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        let port = Int(UInt16(bigEndian: addr.sin_port))
        let r = try hb("known-hosts", "scan", "127.0.0.1", "--port", String(port), "--timeout", "1")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "hostbook: cannot scan '127.0.0.1' port \(port): timed out after 1 s without an SSH answer\n"
                       + "Check the host and port, and any firewall on the way; --timeout SECONDS allows more time.\n")
    }

    /// A port nothing listens on: bound, then closed again.
    func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
