// CredentialStore in-process, against a real SQLite database and the real Secret Service of
// the session (scripts/with-keyring): the vault item and the row of a key or a password are
// written, replaced and removed together, a row that cannot be written takes its item back,
// and a stored key whose item is lost is restored in place (same row) by storing the same key
// again, while "is this key free" stays KeyStore.checkFree's answer for everything else.
import Foundation
import TestSupport
import XCTest
import Credentials
import HostStore
import KeyFormats
import SecureMemory
import Vault

final class CredentialStoreTests: XCTestCase {
    private var temp: TempFolder!
    private var folder: String!
    private var path: String { folder + "/hostbook.db" }
    private var credentials: CredentialStore!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, VaultClient.health().status == .ok else {
            throw XCTSkip("needs a Secret Service: run inside scripts/with-keyring")
        }
        temp = try TempFolder()
        folder = temp.path
        credentials = CredentialStore(database: try HostDatabase.open(path: path))
    }

    override func tearDown() {
        if let credentials { for item in (try? credentials.vault.allItems()) ?? [] { _ = try? credentials.vault.delete(item) } }
        credentials = nil
        temp = nil
    }

    private func items() throws -> Set<VaultItemID> { Set(try credentials.vault.allItems()) }

    private func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    private func text(_ id: VaultItemID) throws -> String? {
        try credentials.vault.lookup(id).map { s in s.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
    }

    func testAKeyIsStoredRemovedAndItsLostItemRestoredInPlace() throws {
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "laptop")
        XCTAssertEqual(try credentials.admission(name: "laptop", publicKey: key.publicKey), .new)
        guard case .added(let stored) = try credentials.store(key, name: "laptop", format: "generated") else { return XCTFail("not added") }
        XCTAssertEqual(try items(), [CredentialStore.itemID(of: stored)])
        let payload = try XCTUnwrap(try credentials.vault.lookup(CredentialStore.itemID(of: stored)))
        XCTAssertEqual(try OpenSSHPrivateKey.parse(payload, passphrase: nil).key.publicKey, key.publicKey)

        // Stored with its item: the same key under another name, or another key under its name, is refused.
        XCTAssertThrowsError(try credentials.store(key, name: "other", format: "x")) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyAlreadyStored) }
        let other = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "other")
        XCTAssertThrowsError(try credentials.store(other, name: "LAPTOP", format: "x")) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyNameTaken) }
        XCTAssertThrowsError(try credentials.admission(name: "laptop", publicKey: nil)) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyNameTaken) }

        // The item is lost: the same key restores it, under any name, in the same row.
        XCTAssertTrue(try credentials.vault.delete(CredentialStore.itemID(of: stored)))
        XCTAssertEqual(try credentials.admission(name: "anything", publicKey: key.publicKey), .restore(stored))
        XCTAssertEqual(try credentials.admission(name: "laptop", publicKey: nil), .new, "a file that shows no public key may be that key: let through")
        XCTAssertThrowsError(try credentials.store(other, name: "laptop", format: "x")) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .keyNameTaken) }
        XCTAssertEqual(try items(), [], "a refused key leaves no item")
        XCTAssertEqual(try credentials.store(key, name: "anything", format: "openssh"), .restored(stored))
        XCTAssertEqual(try credentials.keys.list(), [stored])
        XCTAssertEqual(try items(), [CredentialStore.itemID(of: stored)])

        // Removing: the row, then the item.
        XCTAssertEqual(try credentials.removeKey(named: "laptop"), stored)
        XCTAssertEqual(try credentials.keys.list(), [])
        XCTAssertEqual(try items(), [])
        XCTAssertNil(try credentials.removeKey(named: "laptop"))
    }

    func testARowThatCannotBeWrittenTakesItsItemBack() throws {
        try credentials.database.addHost(NewHost(name: "exists", hostname: "exists.example"))
        // The same file opened read-only: the vault write succeeds, the row cannot be written.
        let readOnly = CredentialStore(database: try XCTUnwrap(try HostDatabase.openForReading(path: path)))
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k")
        XCTAssertThrowsError(try readOnly.store(key, name: "k", format: "generated")) { error in
            guard let e = error as? CredentialStoreError, case .saveKeyRow = e.step else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try readOnly.addHost(NewHost(name: "web", hostname: "web.example"), password: secret("pw")))
        XCTAssertEqual(try items(), [], "both items were taken back")
        XCTAssertEqual(try credentials.keys.list(), [])
        // A refused row (a name taken) with a password: nothing is left in the vault either.
        XCTAssertThrowsError(try credentials.addHost(NewHost(name: "EXISTS", hostname: "x.example"), password: secret("pw")))
        XCTAssertEqual(try items(), [])
    }

    func testAPasswordFollowsItsHost() throws {
        let host = try credentials.addHost(NewHost(name: "web", hostname: "web.example"), password: secret("first"))
        XCTAssertEqual(host.auth, .password)
        let id = CredentialStore.passwordItemID(of: host)
        XCTAssertEqual(try text(id), "first")

        var change = HostChanges()
        change.password = .set
        let edited = try credentials.editHost("web", change, password: secret("second"))
        XCTAssertEqual(edited.old.auth, .password)
        XCTAssertEqual(try text(id), "second")
        XCTAssertEqual(try items(), [id], "the old item is gone once the new one is committed")

        change.password = .clear
        XCTAssertEqual(try credentials.editHost("web", change, password: nil).new.auth, .agent)
        XCTAssertEqual(try items(), [])

        let again = try credentials.addHost(NewHost(name: "db", hostname: "10.0.0.7"), password: secret("third"))
        XCTAssertEqual(try items(), [CredentialStore.passwordItemID(of: again)])
        XCTAssertEqual(try credentials.removeHost("db").name, "db")
        XCTAssertEqual(try items(), [])
    }
}
