// hostbook's KRLs against ssh-keygen as the oracle: `ssh-keygen -Q -f KRL` says revoked for
// exactly the certificates and keys hostbook's list revokes (by serial, by key id, by key),
// and hostbook's reader gives the same answers for a KRL ssh-keygen -k wrote.
import Foundation
import XCTest
@testable import KeyFormats
import TestSupport

final class KeyRevocationListTests: XCTestCase {
    static let keygen = "/usr/bin/ssh-keygen"

    struct Signed {
        let path: String
        let certificate: Certificate
    }

    func testSSHKeygenAgreesWithHostbooksKRL() throws {
        let dir = try TempFolder()
        func make(_ name: String, _ type: String) throws -> String {
            let path = dir.file(name)
            XCTAssertEqual(try Tool.run(Self.keygen, ["-q", "-N", "", "-t", type, "-C", name, "-f", path]).status, 0)
            return path
        }
        let ca = try make("ca", "ed25519"), otherCA = try make("other-ca", "ecdsa")
        // Six certificates: serials 1...5 by the CA (key ids alice, bob, bob, carol, dave),
        // serial 2 by the other CA; keys k1...k6.
        let plan: [(ca: String, serial: Int, id: String)] = [(ca, 1, "alice"), (ca, 2, "bob"), (ca, 3, "bob"), (ca, 4, "carol"),
                                                             (ca, 5, "dave"), (otherCA, 2, "erin")]
        var signed: [Signed] = []
        for (i, p) in plan.enumerated() {
            let key = try make("k\(i + 1)", i % 2 == 0 ? "ed25519" : "ecdsa")
            let r = try Tool.run(Self.keygen, ["-q", "-s", p.ca, "-I", p.id, "-n", "u", "-z", String(p.serial), "-V", "-1d:+1d", key + ".pub"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let content = try PublicKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: key + "-cert.pub"))))
            guard case .certificate(let cert, _) = content else { return XCTFail("no certificate") }
            signed.append(Signed(path: key + "-cert.pub", certificate: cert))
        }
        let caKey = signed[0].certificate.signatureKey
        // Revoked: serial 2 of the CA (not the other CA's serial 2), key id carol, the key of
        // certificate 5 (so certificate 5 is revoked by its key).
        let krl = KeyRevocationList(version: 3, generatedDate: 1_800_000_000, comment: "test",
                                    certificates: [.init(caKey: caKey.blob, serials: [2, 2], keyIDs: ["carol"])],
                                    sha256Hashes: [Digest.sha256(signed[4].certificate.key.blob)])
        let path = dir.file("hostbook.krl")
        try Data(krl.encoded()).write(to: URL(fileURLWithPath: path))
        let expected: [KeyRevocationList.Revocation?] = [nil, .serial(2), nil, .keyID("carol"), .key, nil]
        for (i, s) in signed.enumerated() {
            XCTAssertEqual(krl.revocation(of: s.certificate.key, certificate: s.certificate), expected[i], "certificate \(i + 1)")
            XCTAssertEqual(try revokedBySSHKeygen(path, s.path), expected[i] != nil, "ssh-keygen -Q on certificate \(i + 1)")
            XCTAssertEqual(try revokedBySSHKeygen(path, dir.file("k\(i + 1).pub")), expected[i] == .key, "ssh-keygen -Q on key \(i + 1)")
        }
        XCTAssertEqual(try KeyRevocationList(bytes: krl.encoded()), KeyRevocationList(
            version: 3, generatedDate: 1_800_000_000, comment: "test",
            certificates: [.init(caKey: caKey.blob, serials: [2], keyIDs: ["carol"])],
            sha256Hashes: [Digest.sha256(signed[4].certificate.key.blob)]), "read back: repeats gone")

        // The same revocations written by ssh-keygen -k, read by hostbook.
        let spec = dir.file("spec")
        try Data("serial: 2\nid: carol\nhash: \(signed[4].certificate.key.sha256Fingerprint)\n".utf8).write(to: URL(fileURLWithPath: spec))
        let theirs = dir.file("ssh-keygen.krl")
        let made = try Tool.run(Self.keygen, ["-k", "-f", theirs, "-s", ca + ".pub", spec])
        XCTAssertEqual(made.status, 0, made.stderr)
        let read = try KeyRevocationList(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: theirs))))
        for (i, s) in signed.enumerated() {
            XCTAssertEqual(read.revocation(of: s.certificate.key, certificate: s.certificate), expected[i], "ssh-keygen's KRL, certificate \(i + 1)")
        }
    }

    func testDamagedListsAreRefused() {
        XCTAssertThrowsError(try KeyRevocationList(bytes: Array("SSHKRL\n".utf8)))
        var bytes = KeyRevocationList(version: 1, generatedDate: 0).encoded()
        XCTAssertNoThrow(try KeyRevocationList(bytes: bytes))
        bytes += [9, 0, 0, 0, 0]
        XCTAssertThrowsError(try KeyRevocationList(bytes: bytes), "an unknown section")
    }

    /// ssh-keygen -Q exits 1 when the key or certificate is revoked, 0 when not.
    private func revokedBySSHKeygen(_ krl: String, _ key: String) throws -> Bool {
        let r = try Tool.run(Self.keygen, ["-Q", "-f", krl, key])
        XCTAssertTrue(r.status == 0 || r.status == 1, r.stderr)
        return r.status == 1
    }
}
