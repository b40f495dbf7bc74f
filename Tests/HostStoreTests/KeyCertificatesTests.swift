// KeyCertificates on a real SQLite file: a certificate made by ssh-keygen -s is attached
// only to the key it certifies and only when its CA signature verifies, is read back with
// the key (StoredKey.certificate), replaced by a renewal, detached, and goes with its key.
import Foundation
import XCTest
import KeyFormats
import TestSupport
@testable import HostStore

final class KeyCertificatesTests: DatabaseTestCase {
    /// `name` made by ssh-keygen in the test's folder: its public key, stored as a key.
    private func storedKey(_ name: String) throws -> StoredKey {
        try keygen(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", folder.file(name)])
        let line = try PublicKeyLine.parse(String(contentsOfFile: folder.file(name + ".pub"), encoding: .utf8))
        return try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: line.key,
                                                        comment: name, format: "openssh-key-v1"))
    }

    /// ssh-keygen -s's certificate of `key` by `ca` (made on first use).
    private func certificate(of key: String, by ca: String = "ca", serial: Int = 1) throws -> Certificate {
        if !FileManager.default.fileExists(atPath: folder.file(ca)) {
            try keygen(["-q", "-t", "ed25519", "-N", "", "-f", folder.file(ca)])
        }
        try keygen(["-q", "-s", folder.file(ca), "-I", "\(key)@test", "-n", key, "-z", String(serial), "-V", "-5m:+1d", folder.file(key + ".pub")])
        guard case .certificate(let certificate, _) = try PublicKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder.file(key + "-cert.pub"))))) else {
            throw XCTSkip("ssh-keygen wrote no certificate")
        }
        return certificate
    }

    private func keygen(_ args: [String]) throws {
        guard let keygen = Tool.sshKeygen else { throw XCTSkip("ssh-keygen is not installed") }
        let run = try Tool.run(keygen, args)
        XCTAssertEqual(run.status, 0, "ssh-keygen \(args): \(run.stderr)")
    }

    func testACertificateIsAttachedToItsKeyAndReadBackWithIt() throws {
        let key = try storedKey("alice")
        XCTAssertNil(key.certificate)
        let certificate = try certificate(of: "alice")
        XCTAssertNil(try KeyCertificates(database: db).attach(certificate, comment: "alice", to: key))
        let again = try XCTUnwrap(try KeyStore(database: db).find(name: "alice"))
        XCTAssertEqual(again.certificate, certificate)
        XCTAssertEqual(try KeyStore(database: db).list().first?.certificate, certificate)
        XCTAssertEqual(try KeyCertificates(database: db).all(), [key.id: certificate])
        XCTAssertEqual(again.certificate?.keyID, "alice@test")
        XCTAssertEqual(again.certificate?.principals, ["alice"])
    }

    func testACertificateOfAnotherKeyIsRefusedAndNothingIsWritten() throws {
        let alice = try storedKey("alice")
        _ = try storedKey("bob")
        let bobs = try certificate(of: "bob")
        XCTAssertThrowsError(try KeyCertificates(database: db).attach(bobs, to: alice)) {
            XCTAssertEqual($0 as? KeyCertificateRefusal, .certifiesAnotherKey(certified: bobs.sha256Fingerprint, key: alice.fingerprint))
        }
        XCTAssertNil(try KeyStore(database: db).find(name: "alice")?.certificate)
        XCTAssertEqual(try KeyCertificates(database: db).all().count, 0)
    }

    func testACertificateWhoseSignatureDoesNotVerifyIsRefused() throws {
        let key = try storedKey("alice")
        let good = try certificate(of: "alice")
        // The key id's last byte changed: the CA's signature no longer covers the contents.
        var blob = good.blob
        let at = try XCTUnwrap(blob.indices.last { i in Array(blob[i..<min(blob.count, i + 10)]) == Array("alice@test".utf8) }) + 9
        blob[at] ^= 0x01
        let damaged = try Certificate(blob: blob)
        XCTAssertThrowsError(try KeyCertificates(database: db).attach(damaged, to: key)) {
            XCTAssertEqual($0 as? KeyCertificateRefusal, .badSignature)
        }
        XCTAssertNil(try KeyStore(database: db).find(name: "alice")?.certificate)
    }

    func testARenewalReplacesTheCertificateAndRemoveDetachesIt() throws {
        let key = try storedKey("alice")
        let first = try certificate(of: "alice", serial: 1)
        let second = try certificate(of: "alice", serial: 2)
        let store = KeyCertificates(database: db)
        try store.attach(first, to: key)
        XCTAssertEqual(try store.attach(second, to: key), first, "the replaced certificate is returned")
        XCTAssertEqual(try store.certificate(of: key)?.serial, 2)
        XCTAssertEqual(try store.remove(from: key), second)
        XCTAssertNil(try store.certificate(of: key))
        XCTAssertNil(try store.remove(from: key), "nothing left to remove")
        XCTAssertNotNil(try KeyStore(database: db).find(name: "alice"), "the key stays")
    }

    func testTheCertificateGoesWithItsKey() throws {
        let key = try storedKey("alice")
        try KeyCertificates(database: db).attach(try certificate(of: "alice"), to: key)
        try KeyStore(database: db).remove(name: "alice")
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM key_certificates").first?.int(0), 0)
    }
}
