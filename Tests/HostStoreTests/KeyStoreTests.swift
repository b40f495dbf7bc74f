// KeyStore on a real SQLite file in a temporary folder.
import Foundation
import XCTest
import KeyFormats
@testable import HostStore

final class KeyStoreTests: DatabaseTestCase {
    var store: KeyStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = KeyStore(database: db)
    }

    override func tearDownWithError() throws {
        store = nil
    }

    func ed25519(_ byte: UInt8) -> PublicKey { PublicKey(.ed25519(publicKey: [UInt8](repeating: byte, count: 32))) }

    func newKey(_ name: String, _ key: PublicKey, uuid: String = UUIDString.random()) -> NewKey {
        NewKey(uuid: uuid, name: name, publicKey: key, comment: "c \(name)", format: "openssh-key-v1")
    }

    /// Several keys (`keys import-agent`) go in all or none: a refusal of the last one
    /// leaves none of them saved.
    func testInsertingSeveralKeysIsAllOrNone() throws {
        XCTAssertThrowsError(try store.insert([newKey("one", ed25519(1)), newKey("two", ed25519(2)), newKey("ONE", ed25519(3))]))
        XCTAssertEqual(try store.list(), [])
        let saved = try store.insert([newKey("one", ed25519(1)), newKey("two", ed25519(2))])
        XCTAssertEqual(try store.list(), saved)
        XCTAssertEqual(saved.map(\.location), [.vault, .vault])
    }

    func testInsertAndFind() throws {
        let key = ed25519(1)
        let stored = try store.insert(newKey("work", key, uuid: "u-1"))
        XCTAssertEqual(stored.name, "work")
        XCTAssertEqual(stored.uuid, "u-1")
        XCTAssertEqual(stored.algorithm, "ssh-ed25519")
        XCTAssertEqual(stored.bits, 256)
        XCTAssertEqual(stored.fingerprint, key.sha256Fingerprint)
        XCTAssertEqual(stored.publicKeyBlob, key.blob)
        XCTAssertEqual(try stored.publicKey, key)
        XCTAssertEqual(stored.comment, "c work")
        XCTAssertEqual(stored.format, "openssh-key-v1")
        XCTAssertTrue(stored.createdAt.hasSuffix("Z"))
        XCTAssertEqual(try store.find(name: "WORK"), stored, "names compare case-insensitively")
        XCTAssertEqual(try store.find(fingerprint: key.sha256Fingerprint), stored)
        XCTAssertEqual(try store.find(uuid: "u-1"), stored)
        XCTAssertNil(try store.find(name: "other"))
        XCTAssertNil(try store.find(fingerprint: ed25519(2).sha256Fingerprint))
    }

    func testDuplicatesAreRefused() throws {
        try store.insert(newKey("work", ed25519(1)))
        XCTAssertThrowsError(try store.insert(newKey("Work", ed25519(2)))) {
            XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyNameTaken)
            XCTAssertEqual(($0 as? HostStoreError)?.message, "a key named 'Work' already exists")
        }
        XCTAssertThrowsError(try store.insert(newKey("again", ed25519(1)))) {
            XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyAlreadyStored)
            XCTAssertEqual(($0 as? HostStoreError)?.message, "this key is already stored as 'work' (\(ed25519(1).sha256Fingerprint))")
        }
        XCTAssertEqual(try store.list().count, 1)
    }

    func testListIsSortedByName() throws {
        for (i, name) in ["zeta", "Alpha", "beta"].enumerated() { try store.insert(newKey(name, ed25519(UInt8(i)))) }
        XCTAssertEqual(try store.list().map(\.name), ["Alpha", "beta", "zeta"])
    }

    func testRemove() throws {
        try store.insert(newKey("work", ed25519(1)))
        let removed = try store.remove(name: "WORK")
        XCTAssertEqual(removed?.name, "work")
        XCTAssertNil(try store.find(name: "work"))
        XCTAssertNil(try store.remove(name: "work"))
        // The fingerprint is free again.
        XCTAssertNoThrow(try store.insert(newKey("work2", ed25519(1))))
    }

    func testRemoveRefusesAKeyUsedByAHost() throws {
        let key = try store.insert(newKey("work", ed25519(1)))
        try db.connection.run("""
            INSERT INTO hosts (uuid, name, hostname, auth, key_id, created_at, updated_at)
            VALUES ('h1', 'web', 'web.example', 'key', ?, 'now', 'now')
            """, [.int(key.id)])
        XCTAssertThrowsError(try store.remove(name: "work")) {
            XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyInUse)
            XCTAssertEqual(($0 as? HostStoreError)?.message, "key 'work' is used by host 'web'")
        }
        XCTAssertNotNil(try store.find(name: "work"))
    }
}
