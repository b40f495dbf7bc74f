// git setup's decisions in-process on a real SQLite file: a key saved hosts log in with is
// offered a dedicated signing key under the first free name; one no host uses, or one
// restricted already, is not; the public key files go beside the database.
import Foundation
import HostStore
import KeyFormats
import TestSupport
import Workflows
import XCTest

final class GitSetupWorkflowTests: XCTestCase {
    func testAKeyHostsLogInWithIsOfferedADedicatedKeyUnderAFreeName() throws {
        let folder = try TempFolder()
        let database = try Workspace(environment: [:], databasePath: folder.file("h.db")).database()
        func key(_ name: String, _ byte: UInt8) throws -> StoredKey {
            try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name,
                                                           publicKey: PublicKey(.ed25519(publicKey: [UInt8](repeating: byte, count: 32))),
                                                           comment: "", format: "generated"))
        }
        let login = try key("login", 1), unused = try key("unused", 2)
        _ = try key(GitSetupWorkflow.offeredKeyName, 3)
        XCTAssertNil(try GitSetupWorkflow.dedicatedKeyOffer(database: database, key: login), "no host uses it yet")
        _ = try database.addHost(NewHost(name: "web", hostname: "web.example", key: "login"))
        let offer = try XCTUnwrap(try GitSetupWorkflow.dedicatedKeyOffer(database: database, key: login))
        XCTAssertEqual(offer.name, "git-signing-2", "git-signing is taken")
        XCTAssertEqual(offer.hosts, ["web"])
        XCTAssertNil(try GitSetupWorkflow.dedicatedKeyOffer(database: database, key: unused))
        try KeyNamespaces(database: database).set(["git"], for: login)
        XCTAssertNil(try GitSetupWorkflow.dedicatedKeyOffer(database: database, key: login), "restricted already")
    }

    func testThePublicKeyFilesGoBesideTheDatabase() {
        XCTAssertEqual(GitSetupWorkflow.keyFolder(databasePath: "/d/hostbook/hostbook.db"), "/d/hostbook/git-signing")
    }
}
