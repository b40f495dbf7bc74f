// The holes of issue 9, each found by checking hostbook against real ssh/sshd, kept as one
// regression test each (named after the hole) with the real binary.
import Foundation
import TestSupport
import XCTest

final class TrustCoreRegressionTests: XCTestCase, TestHostKeys {
    var tmp: TemporaryDirectory!
    var env: [String: String] = [:]


    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func hb(_ args: [String], stdin: Data = Data()) throws -> HostbookResult {
        try HostbookProcess.run(args, stdin: stdin, environment: env)
    }

    func importFile(_ bytes: [UInt8]) throws -> HostbookResult {
        let path = tmp.file("kh-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try hb(["known-hosts", "import", path])
    }

    func importLines(_ text: String) throws -> HostbookResult { try importFile(Array(text.utf8)) }

    func status(_ host: String, _ key: String, port: Int = 22) throws -> Int32 {
        try hb(["known-hosts", "check", host, "--port", String(port), "--key", key]).status
    }

    /// A fresh key pair made by ssh-keygen; returns `TYPE BASE64` of the public key.
    func makeKey(_ type: String, _ name: String, bits: String? = nil) throws -> String {
        let path = tmp.file(name)
        var args = ["-q", "-t", type, "-N", "", "-C", name, "-f", path]
        if let bits { args += ["-b", bits] }
        XCTAssertEqual(try ToolProcess.sshKeygen(args).status, 0)
        return try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// A host certificate for the key at `name` signed by the CA at `ca`; returns `TYPE BASE64`.
    func makeCertificate(_ name: String, ca: String, principals: String = "h.test") throws -> String {
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-s", tmp.file(ca), "-I", "id", "-h", "-n", principals, tmp.file(name) + ".pub"]).status, 0)
        return try String(contentsOfFile: tmp.file(name) + "-cert.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    // MARK: 1. The bracketed form skipped name validation

    func testHole1BracketedAndOddNamesAreRefusedWithExit2() throws {
        for name in ["[*]:2222", "[a,github.com]:2222", "[?ank.example]:2200", "[!x]:2222", "a b", "a\nb", "a\tb", "x\u{1b}[2J",
                     "*", "a,b", "!a", "h?st", "[h.test]", "[h.test]:0", "[h.test]:99999", "[h.test]:22x", "|1|abc"] {
            let r = try hb(["known-hosts", "approve", name, "--key", keyA, "--yes"])
            XCTAssertEqual(r.status, 2, "\(name.debugDescription): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("hostbook: '"), r.stderr)
            XCTAssertFalse(r.stderr.contains("\u{1b}") || r.stderr.dropLast().contains("\n\n"), r.stderr.debugDescription)
            XCTAssertEqual(try hb(["known-hosts", "check", name, "--key", keyA]).status, 2, name.debugDescription)
            XCTAssertEqual(try hb(["known-hosts", "revoke", name, "--key", keyA]).status, 2, name.debugDescription)
            XCTAssertEqual(try hb(["known-hosts", "remove", name]).status, 2, name.debugDescription)
        }
        XCTAssertEqual(try hb(["known-hosts", "export"]).stdout, "")
        let r = try hb(["known-hosts", "approve", "[*]:2222", "--key", keyA, "--yes"])
        XCTAssertEqual(r.stderr, "hostbook: '[*]:2222' is not a host name: it is a pattern (* and ? are wildcards in known_hosts)\n"
                       + "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.\n")
        // The valid bracketed form still works, and means exactly that host and port.
        XCTAssertEqual(try hb(["known-hosts", "approve", "[H.test]:2222", "--key", keyA, "--yes"]).status, 0)
        XCTAssertEqual(try hb(["known-hosts", "export"]).stdout, "[h.test]:2222 \(keyA)\n")
        XCTAssertEqual(try status("h.test", keyA, port: 2222), 0)
        XCTAssertEqual(try status("h.test", keyA), 10)
        XCTAssertEqual(try status("github.com", keyA, port: 2222), 10)
        XCTAssertEqual(try hb(["known-hosts", "approve", "[h.test]:2222", "--port", "2200", "--key", keyA, "--yes"]).status, 2)
        // IPv6 addresses are names too.
        XCTAssertEqual(try hb(["known-hosts", "approve", "[2001:db8::1]:2222", "--key", keyA, "--yes"]).status, 0)
        XCTAssertEqual(try hb(["known-hosts", "approve", "2001:db8::1", "--key", keyA, "--yes"]).status, 0)
        XCTAssertEqual(try hb(["known-hosts", "list", "a b"]).status, 2)
    }

    // MARK: 2. scan softened a changed key when another scanned key was trusted

    func testHole2ScanShowsAChangedKeyAsChangedEvenBesideATrustedOne() throws {
        XCTAssertEqual(try hb(["known-hosts", "approve", "h.test", "--key", keyA, "--yes"]).status, 0)
        let dir = tmp.file("bin")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The real Ed25519 key replayed, beside an attacker's ECDSA key.
        try "#!/bin/sh\nprintf '%s\\n' 'h.test \(keyA)' 'h.test \(keyC)'\n".write(toFile: dir + "/ssh-keyscan", atomically: true, encoding: .utf8)
        chmod(dir + "/ssh-keyscan", 0o755)
        env["PATH"] = dir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let kept = try KnownHostsPseudoTerminal.run(["known-hosts", "scan", "h.test"], typing: ["yes"], environment: env)
        XCTAssertEqual(kept.status, 11, kept.screen)
        XCTAssertTrue(kept.screen.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), kept.screen)
        XCTAssertFalse(kept.screen.contains("Are you sure you want to trust this key"), kept.screen)
        XCTAssertTrue(kept.screen.contains("changed: ECDSA key \(fpC)\n"), kept.screen)
        XCTAssertEqual(try status("h.test", keyC), 11)
        XCTAssertEqual(try status("h.test", keyA), 0)
        // Only the typed fingerprint replaces; the scanned key that was trusted stays trusted.
        let replaced = try KnownHostsPseudoTerminal.run(["known-hosts", "scan", "h.test"], typing: [fpC], environment: env)
        XCTAssertEqual(replaced.status, 0, replaced.screen)
        XCTAssertTrue(replaced.screen.contains("replaced: ECDSA key \(fpC)\n"), replaced.screen)
        XCTAssertEqual(try status("h.test", keyC), 0)
        XCTAssertEqual(try status("h.test", keyA), 0)
    }

    // MARK: 3. keys were compared by their raw blob

    // MARK: 4. type names OpenSSH reads were skipped

    // MARK: 5. a certificate on an unmarked line was dropped

    // MARK: 6. a sub-pattern of 1023 bytes or more voids the whole line

    // MARK: 7. a NUL byte in the host field

    // MARK: 8. the Tailscale importer had its own decision

    // MARK: 10. check wrote, and kept the plaintext of every name it looked up

    func testHole10CheckWritesNothingAndKeepsNoName() throws {
        var lines = ""
        for i in 0..<50 {
            let salt = (0..<20).map { UInt8(($0 * 7 + i) & 0xff) }
            lines += "|1|\(Data(salt).base64EncodedString())|\(Data(repeating: UInt8(i), count: 20).base64EncodedString()) \(keyA)\n"
        }
        // A real hashed entry for secret.test, and hashed noise.
        let plain = tmp.file("plain")
        try "secret.test \(keyA)\n".write(toFile: plain, atomically: true, encoding: .utf8)
        XCTAssertEqual(try ToolProcess.sshKeygen(["-H", "-f", plain]).status, 0)
        lines += try String(contentsOfFile: plain, encoding: .utf8)
        XCTAssertEqual(try importLines(lines).status, 0)
        let db = tmp.file("hostbook.db")
        func snapshot() -> [Data?] { [db, db + "-wal", db + "-shm"].map { FileManager.default.contents(atPath: $0) } }
        let before = snapshot()
        for name in ["secret.test", "never-stored.test", "[secret.test]:2222"] {
            _ = try hb(["known-hosts", "check", name, "--key", keyA])
        }
        XCTAssertEqual(try status("secret.test", keyA), 0)
        let after = snapshot()
        XCTAssertEqual(before[0], after[0], "check changed the database file")
        XCTAssertEqual(before[1]?.count ?? 0, after[1]?.count ?? 0, "check wrote to the WAL")
        for file in after.compactMap({ $0 }) {
            XCTAssertNil(file.range(of: Data("never-stored.test".utf8)))
            XCTAssertNil(file.range(of: Data("secret.test".utf8)))
        }
        let tables = try Shell.sql(db, "SELECT name FROM sqlite_master WHERE name LIKE '%hash_scans%' OR sql LIKE '%learned%'")
        XCTAssertEqual(tables.trimmingCharacters(in: .whitespacesAndNewlines), "")
    }

    // MARK: 11. untrusted text reached the terminal raw

    func testHole11OutsideTextIsEscapedEverywhereItIsPrinted() throws {
        let evil = "evil\u{1b}[2J\u{1b}]0;owned\u{07}.test"
        XCTAssertEqual(try importLines("\(evil) \(keyA)\nh.test,\(evil) \(keyB)\n").status, 0)
        for args in [["known-hosts", "list"], ["known-hosts", "list", "h.test"], ["known-hosts", "check", "h.test", "--key", keyA],
                     ["known-hosts", "approve", "h.test", "--key", keyA, "--yes"], ["known-hosts", "remove", "h.test"]] {
            let r = try hb(args)
            XCTAssertFalse((r.stdout + r.stderr).contains("\u{1b}"), "\(args): \((r.stdout + r.stderr).debugDescription)")
            XCTAssertFalse((r.stdout + r.stderr).contains("\u{07}"), "\(args)")
        }
        let list = try hb(["known-hosts", "list"]).stdout
        XCTAssertTrue(list.contains("evil\\u{1b}[2J\\u{1b}]0;owned\\u{7}.test"), list)
        // The approval prompt's "already trusted for" list and the changed-key banner.
        XCTAssertEqual(try importLines("h2.test,\(evil)x \(keyC)\n").status, 0)
        let prompt = try KnownHostsPseudoTerminal.run(["known-hosts", "approve", "fresh.test", "--key", keyC], typing: ["no"], environment: env)
        XCTAssertTrue(prompt.screen.contains("This key is already trusted for:\n    h2.test,evil\\u{1b}"), prompt.screen)
        let banner = try KnownHostsPseudoTerminal.run(["known-hosts", "approve", "h2.test", "--key", keyA], typing: ["no"], environment: env)
        XCTAssertTrue(banner.screen.contains("[entry 'h2.test,evil\\u{1b}[2J"), banner.screen)
        XCTAssertFalse(prompt.screen.contains("\u{1b}[2J") || banner.screen.contains("\u{1b}[2J"))
    }

    /// The messages of `hostbook ssh` and the agent go through the same escaping rule as
    /// the rest (a bidirectional override was printed raw there, controls as `?`).
    func testHole11SSHMessagesUseTheOneEscapingRule() throws {
        let r = try hb(["ssh", "a\u{1b}[2J\u{202e}b"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertEqual(r.stderr, "hostbook: no host named 'a\\u{1b}[2J\\u{202e}b'\nRun 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.\n")
    }
}
