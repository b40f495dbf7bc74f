// `hostbook keys generate`: a new key lands in both stores, its public line is printed, and
// what the vault holds is a key OpenSSH reads (checked with ssh-keygen -y on the export).
// In-process (InProcessCommand runs Hostbook.main) with the real Secret Service
// (scripts/with-keyring). Moved from HostbookTests/KeysGenerateTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KeysGenerateTests: XCTestCase {
    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws { cli = try InProcessCommand() }
    override func tearDown() { cli = nil }

    @discardableResult
    func hb(_ args: [String]) throws -> InProcessCommand.Outcome { try cli.call(args + ["--db", db]) }

    /// Fails (never skips) without a Secret Service: the tests run inside scripts/with-keyring.
    func requireVault() throws {
        _ = try XCTUnwrap(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], "no D-Bus session: run the tests inside scripts/with-keyring")
    }

    func sshKeygenPublic(_ privateKeyFile: Data) throws -> String {
        let file = tmp.file("export-\(UUID().uuidString)")
        try privateKeyFile.write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        return try Tool.run("/usr/bin/ssh-keygen", ["-y", "-P", "", "-f", file]).stdout
    }

    func testGenerateEveryType() throws {
        try requireVault()
        let cases: [([String], String, Int, String)] = [
            ([], "ssh-ed25519", 256, "ED25519"),
            (["--type", "ecdsa"], "ecdsa-sha2-nistp256", 256, "ECDSA"),
            (["--type", "ecdsa", "--bits", "521"], "ecdsa-sha2-nistp521", 521, "ECDSA"),
            (["--type", "rsa", "--bits", "2048"], "ssh-rsa", 2048, "RSA"),
        ]
        for (i, (flags, type, bits, short)) in cases.enumerated() {
            let name = "gen\(i)"
            let r = try hb(["keys", "generate", name, "--comment", "made by test"] + flags)
            XCTAssertEqual(r.status, 0, r.stderr)
            let show = try hb(["keys", "show", name, "--json"])
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: show.stdoutBytes) as? [String: Any])
            XCTAssertEqual(o["type"] as? String, type)
            XCTAssertEqual(o["bits"] as? Int, bits)
            XCTAssertEqual(o["format"] as? String, "generated")
            XCTAssertEqual(o["comment"] as? String, "made by test")
            let fingerprint = try XCTUnwrap(o["fingerprint"] as? String)
            XCTAssertEqual(r.stderr, "Generated key '\(name)': \(bits) \(fingerprint) made by test (\(short))\n")
            XCTAssertEqual(r.stdout, (o["public_key"] as? String ?? "") + "\n")
            // The vault holds the private half of exactly this public key.
            let export = try hb(["keys", "export", name, "--no-passphrase"])
            XCTAssertEqual(export.status, 0, export.stderr)
            XCTAssertEqual(try sshKeygenPublic(export.stdoutBytes), r.stdout, name)
        }
    }

    func testCommentDefaultsToTheName() throws {
        try requireVault()
        let r = try hb(["keys", "generate", "laptop"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("ssh-ed25519 "))
        XCTAssertTrue(r.stdout.hasSuffix(" laptop\n"), r.stdout)
        let again = try hb(["keys", "generate", "laptop"])
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.stderr, "hostbook: a key named 'laptop' already exists\nChoose another name with --name, or remove the existing key first.\n")
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--type", "dsa"], "hostbook: --type must be ed25519, ecdsa, rsa, ed25519-sk or ecdsa-sk, not 'dsa'\n"),
            (["--resident"], "hostbook: --resident applies only to ed25519-sk and ecdsa-sk keys\n"),
            (["--type", "rsa", "--application", "ssh:x"], "hostbook: --application applies only to ed25519-sk and ecdsa-sk keys\n"),
            (["--type", "ed25519-sk", "--bits", "256"], "hostbook: --bits does not apply to ed25519-sk keys\n"),
            (["--type", "ecdsa-sk", "--application", "web"], "hostbook: --application must start with 'ssh:' (e.g. ssh:k), not 'web'\n"),
            (["--bits", "256"], "hostbook: --bits does not apply to ed25519 keys\n"),
            (["--type", "ecdsa", "--bits", "512"], "hostbook: --bits for ecdsa must be 256, 384 or 521, not 512\n"),
            (["--type", "rsa", "--bits", "1024"], "hostbook: --bits for rsa must be from 2048 to 16384, not 1024\n"),
            (["--type", "rsa", "--bits", "lots"], "hostbook: --bits must be a whole number from 1 to 16384, not 'lots'\n"),
        ]
        for (flags, message) in cases {
            let r = try hb(["keys", "generate", "k"] + flags)
            XCTAssertEqual(r.status, 2, "\(flags)")
            XCTAssertEqual(r.stderr, message, "\(flags)")
        }
    }
}
