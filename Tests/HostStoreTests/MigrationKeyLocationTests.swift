// Schema version 12: every key gets a location (KeyLocation) and sk keys their flags. A
// database made at version 7 with an Ed25519 key and an sk key, migrated: the sk key is
// located `security-key` (by its type), the other `vault`, neither has flags; new rows keep
// what they are given; the table refuses a location it does not know.
import Foundation
@testable import HostStore
import KeyFormats
import XCTest
import TestSupport

final class MigrationKeyLocationTests: XCTestCase {
    static let skKey = PublicKey(.skEd25519(publicKey: Array(repeating: 3, count: 32), application: "ssh:"))
    static let plainKey = PublicKey(.ed25519(publicKey: Array(repeating: 4, count: 32)))

    func testKeysBeforeVersion12AreVaultOrSecurityKeyByTheirType() throws {
        let tmp = try TempFolder()
        let path = tmp.file("hostbook.db")
        let conn = try SQLiteConnection(path: path)
        try Schema.migrate(conn, path: path, to: 7)
        for (name, key) in [("laptop", Self.plainKey), ("yubikey", Self.skKey)] {
            try conn.run("""
                INSERT INTO keys (uuid, name, algorithm, bits, fingerprint, public_key, comment, format, created_at)
                VALUES (?, ?, ?, 256, ?, ?, '', 'openssh-key-v1', '2026-01-01T00:00:00Z')
                """, [.text(UUIDString.random()), .text(name), .text(key.type), .text(key.sha256Fingerprint), .blob(key.blob)])
        }

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        let store = KeyStore(database: db)
        XCTAssertEqual(try store.find(name: "laptop")?.location, .vault)
        XCTAssertEqual(try store.find(name: "yubikey")?.location, .securityKey)
        XCTAssertNil(try store.find(name: "yubikey")?.skFlags, "not known for a key stored before v12")
        XCTAssertEqual(try AgentUpstreams(database: db).list(), [])
        XCTAssertThrowsError(try db.connection.run("UPDATE keys SET location = 'floppy' WHERE name = 'laptop'"))
    }

    func testANewKeyKeepsItsLocationAndFlags() throws {
        let tmp = try TempFolder()
        let db = try HostDatabase.open(path: tmp.file("hostbook.db"))
        let store = KeyStore(database: db)
        let sk = try store.insert(NewKey(uuid: UUIDString.random(), name: "sk", publicKey: Self.skKey, comment: "", format: "openssh-key-v1",
                                         skFlags: SecurityKeyFlags(rawValue: 0x05)))
        XCTAssertEqual(sk.location, .securityKey, "an sk key from a file: on its authenticator")
        XCTAssertEqual(sk.skFlags?.needsPresence, true)
        XCTAssertEqual(sk.skFlags?.needsPIN, true)
        let far = try store.insert(NewKey(uuid: UUIDString.random(), name: "far", publicKey: Self.plainKey, comment: "", format: "agent",
                                          location: .upstream))
        XCTAssertEqual(try store.find(uuid: far.uuid)?.location, .upstream)
        XCTAssertFalse(far.location.hasVaultItem)
        XCTAssertEqual(try db.keySecretOwners().map(\.name), ["sk"], "only keys with a vault item are the vault's to check")
    }
}
