// Keys made fresh at test time by ssh-keygen and puttygen — every type × every cipher
// OpenSSH writes, PEM and PKCS#8, PuTTY .ppk v2 and v3 — imported in-process
// (InProcessCommand runs Hostbook.main, the real Secret Service): `keys show --json` must
// give exactly the fingerprints ssh-keygen prints for the same key. Moved from
// HostbookTests/KeysFreshImportTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KeysFreshImportTests: XCTestCase {
    static let passphrase = "fresh-passphrase"
    static let types: [(name: String, args: [String])] = [
        ("ed25519", ["-t", "ed25519"]),
        ("ecdsa256", ["-t", "ecdsa", "-b", "256"]),
        ("ecdsa384", ["-t", "ecdsa", "-b", "384"]),
        ("ecdsa521", ["-t", "ecdsa", "-b", "521"]),
        ("rsa2048", ["-t", "rsa", "-b", "2048"]),
    ]
    /// Every cipher ssh-keygen 9.2 writes into a key file (cipher.c `ciphers[]` without none;
    /// docs/formats.md, "Key-file ciphers").
    static let ciphers = ["aes128-ctr", "aes192-ctr", "aes256-ctr", "aes128-cbc", "aes192-cbc", "aes256-cbc",
                          "aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com", "3des-cbc"]

    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var passFile: String { tmp.file("passphrase") }

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
        cli = try InProcessCommand()
        try Self.passphrase.write(toFile: passFile, atomically: true, encoding: .utf8)
    }

    override func tearDown() { cli = nil }

    func testEveryTypeAndCipherMadeFreshBySSHKeygen() throws {
        for t in Self.types {
            for cipher in [nil] + Self.ciphers.map(Optional.some) {
                let name = "\(t.name)-\(cipher.map { $0.replacingOccurrences(of: "@openssh.com", with: "") } ?? "plain")"
                let path = tmp.file(name)
                var args = ["-q"] + t.args + ["-C", "fresh \(name)", "-f", path]
                if let cipher { args += ["-N", Self.passphrase, "-Z", cipher, "-a", "1"] } else { args += ["-N", ""] }
                try run("/usr/bin/ssh-keygen", args)
                try assertImportMatchesSSHKeygen(path, name: name, oracle: path, encrypted: cipher != nil)
            }
        }
    }

    func testPEMAndPKCS8MadeFreshBySSHKeygen() throws {
        for t in Self.types where t.name != "ed25519" {   // Ed25519 has no PEM form in OpenSSH 9.2
            for format in ["PEM", "PKCS8"] {
                for encrypted in [false, true] {
                    let name = "\(t.name)-\(format.lowercased())-\(encrypted ? "enc" : "plain")"
                    let path = tmp.file(name)
                    try run("/usr/bin/ssh-keygen", ["-q"] + t.args + ["-m", format, "-N", encrypted ? Self.passphrase : "", "-f", path])
                    let head = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
                    XCTAssertTrue(head.hasPrefix("-----BEGIN ") && !head.contains("OPENSSH"), "\(name): \(head)")
                    try assertImportMatchesSSHKeygen(path, name: name, oracle: path, encrypted: encrypted)
                }
            }
        }
    }

    func testPuTTYKeysMadeFreshByPuttygen() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/puttygen") else {
            return XCTFail("puttygen is missing: scripts/setup installs putty-tools")
        }
        let variants: [(String, [String])] = [
            ("v2-plain", ["--ppk-param", "version=2"]),
            ("v2-enc", ["--ppk-param", "version=2", "--new-passphrase", passFile]),
            ("v3-plain", []),
            ("v3-argon2id", ["--new-passphrase", passFile, "--ppk-param", "kdf=argon2id,memory=1024,passes=1,parallelism=1"]),
            ("v3-argon2i", ["--new-passphrase", passFile, "--ppk-param", "kdf=argon2i,memory=1024,passes=3,parallelism=1"]),
        ]
        for t in Self.types {
            let original = tmp.file("\(t.name)-source")
            try run("/usr/bin/ssh-keygen", ["-q"] + t.args + ["-N", "", "-C", "putty \(t.name)", "-f", original])
            for (variant, args) in variants {
                let name = "\(t.name)-ppk-\(variant)"
                let ppk = tmp.file(name + ".ppk")
                try run("/usr/bin/puttygen", [original, "-O", "private", "-o", ppk] + args)
                XCTAssertTrue(try String(contentsOfFile: ppk, encoding: .utf8).hasPrefix(variant.hasPrefix("v2") ? "PuTTY-User-Key-File-2:" : "PuTTY-User-Key-File-3:"))
                try assertImportMatchesSSHKeygen(ppk, name: name, oracle: original, encrypted: variant.hasSuffix("plain") == false)
            }
        }
    }

    // MARK: Helpers

    /// Imports `path` and compares `keys show --json` with `ssh-keygen -l` of `oracle`.
    func assertImportMatchesSSHKeygen(_ path: String, name: String, oracle: String, encrypted: Bool,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        // A database per key: the same key in several formats must not meet "already stored".
        let db = tmp.file(name + ".db")
        // A wrong passphrase first: exit 6, and nothing stored.
        if encrypted {
            let wrong = try cli.call(["keys", "import", path, "--name", name, "--db", db, "--passphrase-stdin"],
                                 stdin: "not the passphrase\n")
            XCTAssertEqual(wrong.status, 6, "\(name): \(wrong.stderr)", file: file, line: line)
            let missing = try cli.call(["keys", "show", name, "--db", db])
            XCTAssertEqual(missing.status, 4, name, file: file, line: line)
        }
        let importArgs = ["keys", "import", path, "--name", name, "--db", db] + (encrypted ? ["--passphrase-file", passFile] : [])
        let imported = try cli.call(importArgs)
        XCTAssertEqual(imported.status, 0, "\(name): \(imported.stderr)", file: file, line: line)
        let show = try cli.call(["keys", "show", name, "--json", "--db", db])
        XCTAssertEqual(show.status, 0, "\(name): \(show.stderr)", file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: show.stdoutBytes) as? [String: Any], file: file, line: line)
        let sha256 = try run("/usr/bin/ssh-keygen", ["-l", "-f", oracle]).split(separator: " ")
        let md5 = try run("/usr/bin/ssh-keygen", ["-l", "-E", "md5", "-f", oracle]).split(separator: " ")
        XCTAssertEqual(object["fingerprint"] as? String, String(sha256[1]), name, file: file, line: line)
        XCTAssertEqual(object["fingerprint_md5"] as? String, String(md5[1]), name, file: file, line: line)
        XCTAssertEqual(object["bits"] as? Int, Int(sha256[0]), name, file: file, line: line)
    }

    /// Runs a tool that must succeed; its stdout.
    @discardableResult
    func run(_ tool: String, _ args: [String]) throws -> String {
        let r = try Tool.run(tool, args)
        guard r.status == 0 else {
            throw NSError(domain: "KeysFreshImportTests", code: Int(r.status), userInfo: [
                NSLocalizedDescriptionKey: "\(tool) \(args.joined(separator: " ")) failed: \(r.stderr)"])
        }
        return r.stdout
    }
}
