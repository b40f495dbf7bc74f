// KeyNamespaces and GitSigningKeys (schema version 5) on a real SQLite file: a key's
// namespaces are replaced whole and lifted, their rules refuse what could not be one, git
// setup restricts an unrestricted key to `git` (and only then), and both go with their key.
import Foundation
import XCTest
import KeyFormats
@testable import HostStore

final class KeyGitSigningStoreTests: DatabaseTestCase {
    func key(_ name: String, _ byte: UInt8) throws -> StoredKey {
        try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: name,
                                                 publicKey: PublicKey(.ed25519(publicKey: [UInt8](repeating: byte, count: 32))),
                                                 comment: "", format: "generated"))
    }

    func testNamespacesAreReplacedWholeAndLifted() throws {
        let a = try key("a", 1), b = try key("b", 2)
        let namespaces = KeyNamespaces(database: db)
        XCTAssertEqual(try namespaces.namespaces(of: a), [])
        try namespaces.set(["git", "file"], for: a)
        XCTAssertEqual(try namespaces.namespaces(of: a), ["file", "git"])
        try namespaces.set(["git"], for: a)
        XCTAssertEqual(try namespaces.namespaces(of: a), ["git"])
        XCTAssertEqual(try namespaces.all(), [a.id: ["git"]])
        XCTAssertEqual(try namespaces.namespaces(of: b), [])
        try namespaces.set([], for: a)
        XCTAssertEqual(try namespaces.all(), [:])
    }

    func testNamespaceRulesRefuseAndWriteNothing() throws {
        let a = try key("a", 1)
        for bad in ["", "git file", "gi\u{1b}t", "git,file", String(repeating: "g", count: 65), "gït"] {
            XCTAssertNotNil(KeyNamespaces.problem(bad), bad)
            XCTAssertThrowsError(try KeyNamespaces(database: db).set([bad, "git"], for: a), bad)
        }
        XCTAssertEqual(try KeyNamespaces(database: db).namespaces(of: a), [])
        for good in ["git", "file", "name@example.com", "a.b-c_d+e"] { XCTAssertNil(KeyNamespaces.problem(good), good) }
    }

    func testGitSetupRestrictsOnlyAnUnrestrictedKey() throws {
        let a = try key("a", 1), b = try key("b", 2), c = try key("c", 3)
        let git = GitSigningKeys(database: db), namespaces = KeyNamespaces(database: db)
        XCTAssertEqual(try git.set(email: "a@example.com", for: a), .restrictedToGit)
        XCTAssertEqual(try namespaces.namespaces(of: a), ["git"])
        XCTAssertEqual(try git.set(email: "a2@example.com", for: a), .none, "already git")
        XCTAssertEqual(try git.email(of: a), "a2@example.com")
        try namespaces.set(["file"], for: b)
        XCTAssertEqual(try git.set(email: "b@example.com", for: b), .gitAdded)
        XCTAssertEqual(try namespaces.namespaces(of: b), ["file", "git"])
        XCTAssertEqual(try git.all().map(\.key.name), ["a", "b"])
        XCTAssertNil(try git.email(of: c))
        for bad in ["", "a b@example.com", "a,b@example.com", "*@example.com", "\"a\"@example.com", "é@example.com", "a@example.com\n"] {
            XCTAssertNotNil(GitSigningKeys.problem(bad), bad)
            XCTAssertThrowsError(try git.set(email: bad, for: c), bad)
        }
        XCTAssertEqual(try namespaces.namespaces(of: c), [], "a refused email changes nothing")
    }

    func testRowsGoWithTheirKey() throws {
        let a = try key("a", 1)
        try GitSigningKeys(database: db).set(email: "a@example.com", for: a)
        try KeyStore(database: db).remove(name: "a")
        XCTAssertEqual(try KeyNamespaces(database: db).all(), [:])
        XCTAssertEqual(try GitSigningKeys(database: db).all(), [])
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM key_git_identities").first?.int(0), 0)
    }
}
