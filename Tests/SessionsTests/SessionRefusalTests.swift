// The Sessions library's refusals are data (SessionRefusal): the case names what was
// refused and carries the raw names and paths, unescaped (the executable words and
// escapes them). Checked in-process against a real SQLite database.
import Foundation
import XCTest
import HostStore
import Sessions

final class SessionRefusalTests: XCTestCase {
    private var folder: String!
    private var database: HostDatabase!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("session-refusal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: folder + "/hostbook.db")
    }

    override func tearDownWithError() throws {
        database = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func refusal(_ body: () throws -> Any) -> SessionRefusal? {
        do {
            _ = try body()
            XCTFail("no refusal")
            return nil
        } catch {
            XCTAssertTrue(error is SessionRefusal, "\(error)")
            return error as? SessionRefusal
        }
    }

    func testAnUnsignedBundleCarriesItsRawPath() {
        let path = folder + "/a\u{1b}[2Jb/bundle.txt"
        XCTAssertEqual(refusal { try BundleSignature.signer(of: Array("x".utf8), signature: nil, shownAs: path) },
                       .bundleNotSigned(path: path))
    }

    func testSigningWithAMissingKeyCarriesTheName() {
        XCTAssertEqual(refusal { try BundleSignature.sign(Array("x".utf8), keyName: "no\u{7}such", database: self.database,
                                                          socket: self.folder + "/agent.sock") },
                       .keyNotFound(name: "no\u{7}such"))
    }

    func testAMissingSubscriptionSaysWhetherItWasForAnUpdate() throws {
        let subscriber = BundleSubscriber(database: database, databasePath: folder + "/hostbook.db",
                                          git: try BundleGit(environment: ProcessInfo.processInfo.environment), apply: { _ in nil })
        XCTAssertEqual(refusal { try subscriber.subscriptions(named: "team\u{1b}") }, .notSubscribed(bundle: "team\u{1b}", updating: true))
        XCTAssertEqual(refusal { try subscriber.unsubscribe(name: "team", keepHosts: true) }, .notSubscribed(bundle: "team", updating: false))
    }
}
