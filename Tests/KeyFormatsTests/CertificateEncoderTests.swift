// The certificate encoder against ssh-keygen as the oracle: for every CA type and every
// certified key type, `ssh-keygen -L` prints hostbook's certificate exactly as it prints the
// one `ssh-keygen -s` made with the same key, key id, principals, serial, options and
// validity (the nonce and signature differ; -L shows neither).
import Foundation
import SecureMemory
import XCTest
@testable import KeyFormats
import TestSupport

final class CertificateEncoderTests: XCTestCase {
    static let keygen = "/usr/bin/ssh-keygen"
    /// 2026-01-01T00:00:00Z and 2026-06-01T00:00:00Z.
    static let from: UInt64 = 1_767_225_600, to: UInt64 = 1_780_272_000

    /// One way of signing: ssh-keygen's arguments and the same request for hostbook.
    struct Scenario {
        let name: String
        let role: Certificate.Role
        let keygenOptions: [String]
        let hostbookOptions: [String]
    }

    static let scenarios = [
        Scenario(name: "user, default extensions", role: .user, keygenOptions: [], hostbookOptions: []),
        Scenario(name: "user, options", role: .user,
                 keygenOptions: ["-O", "no-pty", "-O", "no-x11-forwarding", "-O", "force-command=/usr/bin/uptime -p",
                                 "-O", "source-address=127.0.0.1/32,::1", "-O", "extension:login@example.com=alice",
                                 "-O", "verify-required"],
                 hostbookOptions: ["no-pty", "no-x11-forwarding", "force-command=/usr/bin/uptime -p", "source-address=127.0.0.1/32,::1",
                                   "extension:login@example.com=alice", "verify-required"]),
        Scenario(name: "user, cleared then one", role: .user, keygenOptions: ["-O", "clear", "-O", "permit-pty"],
                 hostbookOptions: ["clear", "permit-pty"]),
        Scenario(name: "host", role: .host, keygenOptions: ["-h"], hostbookOptions: []),
    ]

    func testSSHKeygenListsHostbookCertificatesAsItsOwnAcrossKeyTypes() throws {
        let dir = try TempFolder()
        func make(_ name: String, _ args: [String]) throws -> String {
            let path = dir.file(name)
            let r = try Tool.run(Self.keygen, ["-q", "-N", "", "-C", name, "-f", path] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
            return path
        }
        let cas = [try make("ca-ed25519", ["-t", "ed25519"]), try make("ca-ecdsa256", ["-t", "ecdsa", "-b", "256"]),
                   try make("ca-ecdsa384", ["-t", "ecdsa", "-b", "384"]), try make("ca-rsa", ["-t", "rsa", "-b", "2048"])]
        let subjects = [try make("user-ed25519", ["-t", "ed25519"]), try make("user-ecdsa521", ["-t", "ecdsa", "-b", "521"]),
                        try make("user-rsa", ["-t", "rsa", "-b", "2048"])]
        var serial: UInt64 = 41
        var compared = 0
        for ca in cas {
            let caKey = try OpenSSHPrivateKey.parse(SecretBytes(copying: Array(try Data(contentsOf: URL(fileURLWithPath: ca)))), passphrase: nil).key
            for subject in subjects {
                let publicKey = try PublicKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: subject + ".pub")))).publicKey
                for scenario in Self.scenarios {
                    serial += 1
                    let principals = scenario.role == .user ? ["alice", "deploy"] : ["web.example.com", "127.0.0.1"]
                    let what = "\(ca) signs \(subject), \(scenario.name)"
                    // ssh-keygen -s writes SUBJECT-cert.pub beside SUBJECT.pub.
                    let signed = try Tool.run(Self.keygen, ["-q", "-s", ca, "-I", "key id \(serial)", "-n", principals.joined(separator: ","),
                                                            "-z", String(serial), "-V", "20260101000000:20260601000000"]
                                                            + scenario.keygenOptions + [subject + ".pub"], environment: ["TZ": "UTC"])
                    XCTAssertEqual(signed.status, 0, "\(what): \(signed.stderr)")
                    var options = scenario.role == .user ? CertificateOptions.userDefault : CertificateOptions.none
                    for o in scenario.hostbookOptions { try options.apply(o) }
                    let cert = try CertificateEncoder.sign(CertificateFields(key: publicKey, role: scenario.role, serial: serial,
                                                                             keyID: "key id \(serial)", principals: principals,
                                                                             validAfter: Self.from, validBefore: Self.to, options: options),
                                                           with: caKey)
                    let ours = dir.file("hostbook-cert.pub")
                    try Data((cert.line(comment: "x") + "\n").utf8).write(to: URL(fileURLWithPath: ours))
                    XCTAssertEqual(try listing(ours), try listing(subject + "-cert.pub"), what)
                    XCTAssertTrue(cert.verifySignature(), what)
                    if caKey.publicKey.type == PublicKey.rsaType { XCTAssertEqual(cert.signatureAlgorithm, "rsa-sha2-512", what) }
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 48)
    }

    /// `ssh-keygen -L -f FILE` without its first line (the file name), in UTC.
    private func listing(_ path: String) throws -> String {
        let r = try Tool.run(Self.keygen, ["-L", "-f", path], environment: ["TZ": "UTC"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
    }

    func testOptionsAreRefusedAsSSHKeygenRefusesThem() {
        var o = CertificateOptions.userDefault
        XCTAssertThrowsError(try o.apply("permit-everything")) { XCTAssertEqual($0 as? CertificateOptionError, .unknown("permit-everything")) }
        XCTAssertThrowsError(try o.apply("force-command=")) { XCTAssertEqual($0 as? CertificateOptionError, .emptyValue(name: "force-command")) }
        XCTAssertNoThrow(try o.apply("force-command=true"))
        XCTAssertThrowsError(try o.apply("force-command=false")) { XCTAssertEqual($0 as? CertificateOptionError, .repeated(name: "force-command")) }
        XCTAssertThrowsError(try o.apply("source-address=10.0.0.0/33")) { XCTAssertEqual($0 as? CertificateOptionError, .badSourceAddress("10.0.0.0/33")) }
        XCTAssertNoThrow(try o.apply("NO-PTY"))
        XCTAssertFalse(o.entries.contains { $0.name == "permit-pty" })
    }

    func testAnEmptyValidityWindowIsRefused() throws {
        let ca = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "ca")
        let fields = CertificateFields(key: ca.publicKey, role: .user, serial: 1, keyID: "k", principals: ["a"],
                                       validAfter: 10, validBefore: 10, options: .userDefault)
        XCTAssertThrowsError(try CertificateEncoder.sign(fields, with: ca))
    }
}
