// The known_hosts line grammar (docs/formats.md, "Line grammar") and its agreement with
// ssh-keygen -F.
import Foundation
import XCTest
@testable import KeyFormats
import TestSupport

final class KnownHostsLineTests: XCTestCase {
    let key = KnownHostsFixtures.ed25519(9)

    func testGrammarTable() throws {
        let k = key.base64
        let ok: [(String, KnownHostsLine)] = [
            ("host ssh-ed25519 \(k)", .init(marker: .none, hosts: "host", keyType: "ssh-ed25519", keyBase64: k, comment: "")),
            ("  a,b\tssh-ed25519   \(k)  my comment  \r", .init(marker: .none, hosts: "a,b", keyType: "ssh-ed25519", keyBase64: k, comment: "my comment")),
            ("@revoked * ssh-ed25519 \(k)", .init(marker: .revoked, hosts: "*", keyType: "ssh-ed25519", keyBase64: k, comment: "")),
            ("@cert-authority\t*.example.com ssh-ed25519 \(k) CA", .init(marker: .certAuthority, hosts: "*.example.com", keyType: "ssh-ed25519", keyBase64: k, comment: "CA")),
        ]
        for (text, expected) in ok {
            XCTAssertEqual(try KnownHostsLine.parse(text), .entry(expected), text)
        }
        XCTAssertEqual(try KnownHostsLine.parse(""), .blank)
        XCTAssertEqual(try KnownHostsLine.parse(" \t\r"), .blank)
        XCTAssertEqual(try KnownHostsLine.parse("  # a comment"), .comment)

        let bad: [(String, String)] = [
            ("@what ssh-rsa \(k)", "unknown marker '@what' (expected @cert-authority or @revoked)"),
            ("@revoked", "no host names after the marker"),
            ("@revoked   ", "no host names after the marker"),
            ("host", "no key type after the host names"),
            ("host      ", "no key type after the host names"),
            ("host ssh-ed25519 ", "no key data after the key type ssh-ed25519"),
            ("host ssh-XXX \(k)", "unknown key type 'ssh-XXX'"),
            ("host 2048 35 12345", "unknown key type '2048'"),                 // SSH-1 line
            ("host RSA \(k)", "unknown key type 'RSA'"),                        // short names are not read (ssh-keygen -F -l)
        ]
        for (text, reason) in bad {
            XCTAssertThrowsError(try KnownHostsLine.parse(text), text) { XCTAssertEqual(($0 as? KeyFormatError)?.reason, reason, text) }
        }
    }

    func testEntryLayerChecksTheKey() throws {
        XCTAssertEqual(try KnownHostsEntry.parse("h ssh-ed25519 \(key.base64)")?.key, key)
        let bad: [(String, String)] = [
            ("h ssh-ed25519 AAAATgAAAAdz", "a length field (78) runs past the end of the data"),
            ("h ssh-ed25519 AAAA!", "the key data is not valid base64"),
            ("h ssh-rsa \(key.base64)", "key type mismatch: the line says ssh-rsa but the key is ssh-ed25519"),
            ("h ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAAQA=", "an Ed25519 public key must be 32 bytes, not 1"),
            ("h ssh-ed25519-cert-v01@openssh.com \(key.base64)", "'ssh-ed25519' is not a certificate type"),
            // ssh's reader takes rsa-sha2-256 for an RSA key (sshkey_type_from_name), so only the blob can be wrong.
            ("h rsa-sha2-256 \(key.base64)", "key type mismatch: the line says rsa-sha2-256 but the key is ssh-ed25519"),
        ]
        for (text, reason) in bad {
            XCTAssertThrowsError(try KnownHostsEntry.parse(text), text) { XCTAssertEqual(($0 as? KeyFormatError)?.reason, reason, text) }
        }
    }

    /// A known_hosts file with every kind of line (testkeys/hostkeys, made by
    /// testkeys/make-known-hosts.sh, laid out as OpenSSH's regress/unittests/hostkeys
    /// testdata): every line parses or fails without trapping, and the keys decode with the
    /// fingerprints ssh-keygen gave.
    func testUpstreamFile() throws {
        let dir = KnownHostsFixtures.hostkeysFolder
        let text = try String(contentsOf: dir.appendingPathComponent("known_hosts"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var entries = 0, invalid: [Int] = []
        for (i, line) in lines.enumerated() {
            do { if try KnownHostsEntry.parse(String(line)) != nil { entries += 1 } } catch { invalid.append(i + 1) }
        }
        XCTAssertEqual(entries, 23)
        XCTAssertEqual(invalid, [37, 38, 39, 40, 41, 42])
        let ed1 = try XCTUnwrap(KnownHostsEntry.parse(String(lines[2])))
        XCTAssertEqual(ed1.key.sha256Fingerprint, try Fixtures.fingerprint(dir.appendingPathComponent("ed25519_1.fp")))
        let revoked = try XCTUnwrap(KnownHostsEntry.parse(String(lines[32])))
        XCTAssertEqual(revoked.key.sha256Fingerprint, try Fixtures.fingerprint(dir.appendingPathComponent("ed25519_4.fp")))
    }

    /// For each lookup name, the lines hostbook's matcher selects are exactly the lines
    /// `ssh-keygen -F name -f file` prints — over upstream's file and over generated ones.
    func testAgreementWithSSHKeygen() throws {
        guard let keygen = Tool.which("ssh-keygen") else { throw XCTSkip("ssh-keygen is not installed") }
        var files: [(String, [String])] = []
        let text = try String(contentsOf: KnownHostsFixtures.hostkeysFolder.appendingPathComponent("known_hosts"), encoding: .utf8)
        files.append((text, ["atlas.example.net", "boreas.example.net", "198.51.100.7", "2001:db8:5::7", "foo.example.net",
                             "gate.example.net", "example.net", "198.51.100.77", "2001:db8:ffff::2", "2001:ffff::2",
                             "ATLAS.Example.NET", "nothing.invalid"]))
        let k = key.base64
        let salt: [UInt8] = Array(repeating: 7, count: 20)
        let generated = [
            "# generated by the test",
            "plain.test ssh-ed25519 \(k)",
            "Mixed.Case.TEST ssh-ed25519 \(k)",
            "[plain.test]:2222 ssh-ed25519 \(k)",
            "[plain.test]:22 ssh-ed25519 \(k)",
            "a.test,b.test,!c.test ssh-ed25519 \(k)",
            "*.test,!secret.test ssh-ed25519 \(k)",
            "!only.test ssh-ed25519 \(k)",
            "?.test ssh-ed25519 \(k)",
            "[*.test]:* ssh-ed25519 \(k)",
            "\(HashedHostName(hashing: "hashed.test", salt: salt).text) ssh-ed25519 \(k)",
            "\(HashedHostName(hashing: "[hashed.test]:2222", salt: salt).text) ssh-ed25519 \(k)",
            "@revoked plain.test ssh-ed25519 \(k)",
            "@cert-authority *.test ssh-ed25519 \(k)",
            "  ",
            "x.test,y.test ssh-rsa AAAAB3NzaC1yc2E=",
        ].joined(separator: "\n") + "\n"
        files.append((generated, ["plain.test", "mixed.case.test", "[plain.test]:2222", "[plain.test]:22", "a.test", "c.test",
                                  "secret.test", "only.test", "z.test", "zz.test", "[z.test]:2222", "hashed.test",
                                  "[hashed.test]:2222", "x.test", "nothing"]))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kh-agree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, (text, names)) in files.enumerated() {
            let path = dir.appendingPathComponent("known_hosts\(n)").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for name in names {
                var ours: [Int] = []
                for (i, line) in lines.enumerated() {
                    if case .entry(let l)? = try? KnownHostsLine.parse(String(line)), l.matches(lookup: name) { ours.append(i + 1) }
                }
                let (_, out) = try Tool.output(keygen, ["-F", name, "-f", path])
                let theirs = out.split(separator: "\n").compactMap { line -> Int? in
                    guard line.hasPrefix("# Host "), let r = line.range(of: "found: line ") else { return nil }
                    return Int(line[r.upperBound...].prefix(while: { $0.isNumber }))
                }
                XCTAssertEqual(ours, theirs, "file \(n), name \(name)")
            }
        }
    }
}
