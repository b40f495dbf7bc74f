// Bundle applying's workspace side in-process: `bundle update` with no database finds no
// subscription and creates nothing; a failure after a bundle was applied is told apart.
import Foundation
import HostStore
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
