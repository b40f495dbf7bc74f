// In-process (InProcessCommand runs Hostbook.main): holes 3 to 8, moved from
// HostbookTests/TrustCoreRegressionTests, which keeps the exit-2 names, the scan and approve
// prompts on a terminal, hole 10's files and hole 11's escaping on the binary.
// The holes of issue 9, each found by checking hostbook against real ssh/sshd, kept as one
// regression test each (named after the hole) with the real binary.
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
}
