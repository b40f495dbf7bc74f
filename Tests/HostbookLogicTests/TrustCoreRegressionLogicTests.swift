// The holes of issue 9, each found by checking hostbook against real ssh/sshd, kept as one
// regression test each (named after the hole), in-process (InProcessCommand runs
// Hostbook.main): holes 1, 3 to 8, 10 and the ssh messages of 11. Moved from
// HostbookTests/TrustCoreRegressionTests, which keeps the scan and approve prompts on a
// terminal (holes 2 and 11).
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class TrustCoreRegressionLogicTests: XCTestCase, TestHostKeys {
    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var env: [String: String] = [:]


    override func setUpWithError() throws {
        cli = try InProcessCommand()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func hb(_ args: [String], stdin: Data = Data()) throws -> InProcessCommand.Outcome {
        try cli.call(args, bytes: stdin, environment: env)
    }

    func importFile(_ bytes: [UInt8]) throws -> InProcessCommand.Outcome {
        let path = tmp.file("kh-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try hb(["known-hosts", "import", path])
    }

    func importLines(_ text: String) throws -> InProcessCommand.Outcome { try importFile(Array(text.utf8)) }

    func status(_ host: String, _ key: String, port: Int = 22) throws -> Int32 {
        try hb(["known-hosts", "check", host, "--port", String(port), "--key", key]).status
    }

    /// A fresh key pair made by ssh-keygen; returns `TYPE BASE64` of the public key.
    func makeKey(_ type: String, _ name: String, bits: String? = nil) throws -> String {
        let path = tmp.file(name)
        var args = ["-q", "-t", type, "-N", "", "-C", name, "-f", path]
        if let bits { args += ["-b", bits] }
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", args).status, 0)
        return try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// A host certificate for the key at `name` signed by the CA at `ca`; returns `TYPE BASE64`.
    func makeCertificate(_ name: String, ca: String, principals: String = "h.test") throws -> String {
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-s", tmp.file(ca), "-I", "id", "-h", "-n", principals, tmp.file(name) + ".pub"]).status, 0)
        return try String(contentsOfFile: tmp.file(name) + "-cert.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    func testHole3NonCanonicalRSABlobIsTheSameKey() throws {
        let rsa = try makeKey("rsa", "rsa", bits: "2048")
        let blob = [UInt8](Data(base64Encoded: String(rsa.split(separator: " ")[1]))!)
        // Rebuild the blob with two superfluous zero bytes in front of the modulus.
        func field(_ b: [UInt8], _ at: inout Int) -> [UInt8] {
            let n = Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
            defer { at += 4 + n }
            return Array(b[(at + 4)..<(at + 4 + n)])
        }
        func string(_ v: [UInt8]) -> [UInt8] { [UInt8(v.count >> 24 & 0xff), UInt8(v.count >> 16 & 0xff), UInt8(v.count >> 8 & 0xff), UInt8(v.count & 0xff)] + v }
        var at = 0
        let type = field(blob, &at), e = field(blob, &at), n = field(blob, &at)
        let odd = "ssh-rsa " + Data(string(type) + string(e) + string([0, 0] + n)).base64EncodedString()
        XCTAssertNotEqual(odd, rsa)
        // ssh-keygen gives both spellings one fingerprint; so does hostbook.
        try (odd + "\n").write(toFile: tmp.file("odd.pub"), atomically: true, encoding: .utf8)
        let keygen = try Tool.run("/usr/bin/ssh-keygen", ["-lf", tmp.file("odd.pub")]).stdout.split(separator: " ")[1]
        XCTAssertEqual(try importLines("stored.test \(odd)\n@revoked revoked.test \(odd)\n").status, 0)
        XCTAssertEqual(try status("stored.test", rsa), 0)
        XCTAssertEqual(try status("revoked.test", rsa), 12)
        let check = try hb(["known-hosts", "check", "stored.test", "--key", odd, "--json"])
        XCTAssertTrue(check.stdout.contains("\"fingerprint\": \"\(keygen)\""), check.stdout)
        XCTAssertTrue(try hb(["known-hosts", "list", "--json"]).stdout.contains("\"fingerprint\": \"\(keygen)\""))
    }

    func testHole4RSASHA2AndCertificateTypeNamesAreRead() throws {
        let rsa = try makeKey("rsa", "rsa", bits: "2048")
        let base64 = rsa.split(separator: " ")[1]
        _ = try makeKey("ed25519", "ca")
        let cert = try makeCertificate("rsa", ca: "ca")
        let certBase64 = cert.split(separator: " ")[1]
        let r = try importLines("@revoked * rsa-sha2-512 \(base64)\nh256.test rsa-sha2-256 \(base64)\n"
                                + "hc.test rsa-sha2-512-cert-v01@openssh.com \(certBase64)\nshort.test RSA \(base64)\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("Imported 3 entries"), r.stdout)
        XCTAssertTrue(r.stderr.contains(":4: unknown key type 'RSA'; line skipped"), r.stderr)   // as ssh-keygen -F -l
        XCTAssertEqual(try status("any.test", rsa), 12)
        XCTAssertEqual(try status("h256.test", rsa), 12)
        XCTAssertEqual(try status("hc.test", keyA), 11)
    }

    func testHole5CertificateOnAnUnmarkedLineMakesAPlainKeyChanged() throws {
        let host = try makeKey("ed25519", "host")
        _ = try makeKey("ed25519", "ca")
        let cert = try makeCertificate("host", ca: "ca")
        XCTAssertEqual(try importLines("h.test \(cert)\n").status, 0)
        XCTAssertEqual(try status("h.test", host), 11)     // the entry never holds the plain key
        XCTAssertEqual(try status("other.test", host), 10)
        XCTAssertTrue(try hb(["known-hosts", "export"]).stdout.hasPrefix("h.test ssh-ed25519-cert-v01@openssh.com "))
    }

    func testHole6LongSubpatternVoidsTheWholeList() throws {
        let long = String(repeating: "x", count: 1023)
        let shorter = String(repeating: "y", count: 1022)
        XCTAssertEqual(try importLines("a.test,\(long) \(keyA)\nb.test,\(shorter) \(keyA)\n!\(long),c.test \(keyA)\n").status, 0)
        XCTAssertEqual(try status("a.test", keyA), 10)
        XCTAssertEqual(try status("b.test", keyA), 0)
        XCTAssertEqual(try status("c.test", keyA), 10)
    }

    func testHole7NULEndsTheLineAsInC() throws {
        let r = try importFile(Array("h.test\u{0}x.test \(keyA)\nc.test \(keyA) comment\u{0}junk\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains(":1: no key type after the host names; line skipped"), r.stderr)
        XCTAssertEqual(try status("h.test", keyA), 10)
        XCTAssertEqual(try status("c.test", keyA), 0)
    }

    func testHole8TailscaleImportCannotAddAKeyBesideAManualOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manual = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDTuQOHJ7pz5MacwRqZc5juOJNf2N0RHMpPJ0VYnp9P1"
        XCTAssertEqual(try hb(["known-hosts", "approve", "cache01.tail7c3e90.ts.net", "--key", manual, "--yes"]).status, 0)
        var text = try String(contentsOf: root.appendingPathComponent("testdata/tailscale/status-rotation-before.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "        \"\(manual)\"\n", with: "        \"\(manual)\",\n        \"\(keyC)\"\n")
        let doc = tmp.file("crafted.json")
        try text.write(toFile: doc, atomically: true, encoding: .utf8)
        _ = try hb(["import-tailscale", doc, "--all"])
        XCTAssertEqual(try status("cache01.tail7c3e90.ts.net", manual), 0)
        XCTAssertEqual(try status("cache01.tail7c3e90.ts.net", keyC), 11)
    }

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

    func testHole10CheckWritesNothingAndKeepsNoName() throws {
        var lines = ""
        for i in 0..<50 {
            let salt = (0..<20).map { UInt8(($0 * 7 + i) & 0xff) }
            lines += "|1|\(Data(salt).base64EncodedString())|\(Data(repeating: UInt8(i), count: 20).base64EncodedString()) \(keyA)\n"
        }
        // A real hashed entry for secret.test, and hashed noise.
        let plain = tmp.file("plain")
        try "secret.test \(keyA)\n".write(toFile: plain, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-H", "-f", plain]).status, 0)
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
        let tables = try Tool.sql(db, "SELECT name FROM sqlite_master WHERE name LIKE '%hash_scans%' OR sql LIKE '%learned%'")
        XCTAssertEqual(tables.trimmingCharacters(in: .whitespacesAndNewlines), "")
    }

    /// The messages of `hostbook ssh` and the agent go through the same escaping rule as
    /// the rest (a bidirectional override was printed raw there, controls as `?`).
    func testHole11SSHMessagesUseTheOneEscapingRule() throws {
        let r = try hb(["ssh", "a\u{1b}[2J\u{202e}b"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertEqual(r.stderr, "hostbook: no host named 'a\\u{1b}[2J\\u{202e}b'\nRun 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.\n")
    }
}
