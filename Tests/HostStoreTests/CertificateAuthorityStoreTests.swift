// CertificateAuthorityStore on a real SQLite file: serials given once and in order, a failed
// signature giving and recording nothing, revocations recorded once, the KRL built from them.
import Foundation
import XCTest
import KeyFormats
@testable import HostStore

final class CertificateAuthorityStoreTests: DatabaseTestCase {
    func testSerialsIncreaseAndAFailedSignatureLeavesNothing() throws {
        let store = CertificateAuthorityStore(database: db)
        let caKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "ca")
        let subject = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "u").publicKey
        try store.insert(uuid: "ca-uuid", name: "team", publicKey: caKey.publicKey)
        XCTAssertThrowsError(try store.insert(uuid: "other", name: "TEAM", publicKey: subject)) {
            XCTAssertEqual($0 as? CertificateAuthorityRefusal, .nameTaken("TEAM"))
        }
        XCTAssertThrowsError(try store.insert(uuid: "other", name: "again", publicKey: caKey.publicKey)) {
            XCTAssertEqual($0 as? CertificateAuthorityRefusal, .keyTaken("team"))
        }
        func sign(_ ca: StoredAuthority, _ serial: UInt64) throws -> Certificate {
            try CertificateEncoder.sign(CertificateFields(key: subject, role: .user, serial: serial, keyID: "id \(serial)", principals: ["u"],
                                                          validAfter: 0, validBefore: 100, options: .userDefault), with: caKey)
        }
        XCTAssertEqual(try store.issue(authority: "team", sign).serial, 1)
        struct Refused: Error {}
        XCTAssertThrowsError(try store.issue(authority: "team") { _, _ in throw Refused() })
        XCTAssertEqual(try store.issue(authority: "team", sign).serial, 2, "the refused signature took no serial")
        XCTAssertEqual(try store.issued(authority: "team").map(\.certificate.keyID), ["id 1", "id 2"])
        XCTAssertThrowsError(try store.issue(authority: "nobody", sign)) { XCTAssertEqual($0 as? CertificateAuthorityRefusal, .notFound("nobody")) }

        XCTAssertThrowsError(try store.revoke(authority: "team", .serial(3))) {
            XCTAssertEqual($0 as? CertificateAuthorityRefusal, .serialNotIssued(authority: "team", serial: 3, lastSerial: 2))
        }
        XCTAssertTrue(try store.revoke(authority: "team", .serial(2)))
        XCTAssertFalse(try store.revoke(authority: "team", .serial(2)), "twice changes nothing")
        XCTAssertTrue(try store.revoke(authority: "team", .keyID("id 1")))
        XCTAssertTrue(try store.revoke(authority: "team", .key(subject)))
        let krl = try store.revocationList(authority: "team", now: 5)
        XCTAssertEqual(krl.version, 3)
        XCTAssertEqual(krl.certificates, [.init(caKey: caKey.publicKey.blob, serials: [2], keyIDs: ["id 1"])])
        XCTAssertEqual(krl.sha256Hashes, [Digest.sha256(subject.blob)])
        XCTAssertEqual(try store.list().map(\.lastSerial), [2])
        XCTAssertEqual(try store.counts()[try store.existing("team").id]?.revoked, 3)
        // The CA's vault item is a key's to the doctor: no orphan.
        XCTAssertTrue(try db.keySecretOwners().contains { $0.uuid == "ca-uuid" })
    }
}
