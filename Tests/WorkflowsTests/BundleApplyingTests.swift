// Bundle applying's workspace side in-process: `bundle update` with no database finds no
// subscription and creates nothing; a failure after a bundle was applied is told apart.
import Foundation
import HostStore
import KeyFormats
import Sessions
import TestSupport
import Workflows
import XCTest

final class BundleApplyingTests: XCTestCase {
    func testUpdatingWithNoDatabaseFindsNothingAndCreatesNothing() throws {
        let folder = try TempFolder()
        let environment = ["HOME": folder.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let workspace = Workspace(environment: environment, databasePath: folder.file("data/hostbook.db"))
        let subscriber = try BundleApplying.subscriberIfSubscribed(workspace, git: try BundleGit(environment: environment), agentSocket: nil)
        XCTAssertTrue(try subscriber.subscriptions(named: nil).isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("data")), "no database is created to say so")
    }

    func testASubscriberWritesToTheWorkspacesDatabase() throws {
        let folder = try TempFolder()
        let environment = ["HOME": folder.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let workspace = Workspace(environment: environment, databasePath: folder.file("data/hostbook.db"))
        let subscriber = try BundleApplying.subscriber(workspace, git: try BundleGit(environment: environment), agentSocket: nil)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("data/hostbook.db")))
        XCTAssertEqual(subscriber.folder(of: "team"), folder.file("data/bundles/team"))
        XCTAssertThrowsError(try subscriber.subscribe(name: "bad name/", url: folder.file("repo"))) { error in
            guard case .bundleNameRefused? = error as? SessionRefusal else { return XCTFail("\(error)") }
        }
    }

    func testOnlyAFailureAfterTheApplyIsToldApart() {
        struct Other: Error {}
        XCTAssertNil(BundleApplying.failedAfterApply(Other()))
        XCTAssertNil(BundleApplying.failedAfterApply(SessionRefusal.noTrustedSigner(bundle: "b")))
    }
}

final class BundleTrustingTests: XCTestCase {
    private let key = try! PublicKeyLine.parse("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOEoZgURByDqqMRJC1z7xbKnKQb1OTqJ4VTtcu7SujqR").key

    func testTrustThenUntrustChangesOnceAndUntrustWithNoDatabaseCreatesNothing() throws {
        let folder = try TempFolder()
        let workspace = Workspace(environment: [:], databasePath: folder.file("data/hostbook.db"))
        let none = try BundleTrusting.untrust(workspace, bundle: "team", signers: [key], scope: ["*.corp.example"])
        XCTAssertEqual(none.signers.map(\.removed), [false])
        XCTAssertEqual(none.scopeRemoved, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("data")), "no database is created to say so")

        let first = try BundleTrusting.trust(workspace, bundle: "team", signers: [key], scope: ["*.corp.example"])
        XCTAssertEqual(first.signers.map(\.added), [true])
        XCTAssertEqual(first.granted, ["*.corp.example"])
        XCTAssertEqual(first.scope, ["*.corp.example"])
        let again = try BundleTrusting.trust(workspace, bundle: "team", signers: [key], scope: ["*.corp.example"])
        XCTAssertEqual(again.signers.map(\.added), [false])
        XCTAssertEqual(again.granted, [])

        let gone = try BundleTrusting.untrust(workspace, bundle: "team", signers: [key], scope: ["*.corp.example", "*.other"])
        XCTAssertEqual(gone.signers.map(\.removed), [true])
        XCTAssertEqual(gone.scopeRemoved, ["*.corp.example"])
    }
}
