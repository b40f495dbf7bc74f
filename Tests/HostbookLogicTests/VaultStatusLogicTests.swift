// `hostbook vault status` inside the test run's headless keyring, in-process
// (InProcessCommand runs Hostbook.main; scripts/test runs the tests inside
// scripts/with-keyring, and these again inside scripts/with-keepassxc, which sets
// HOSTBOOK_TEST_BACKEND=keepassxc), and its help. Moved from HostbookTests/VaultStatusTests,
// which keeps the binary with no session bus, a bus that does not answer, a locked KeePassXC
// and no default keyring.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class VaultStatusLogicTests: XCTestCase {
    var hb: InProcessCommand!

    override func setUpWithError() throws { hb = try InProcessCommand() }
    override func tearDown() { hb = nil }

    func testInsideTheHeadlessKeyringItIsOK() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            return XCTFail("no D-Bus session: run the tests with scripts/test (or scripts/with-keyring swift test)")
        }
        // The service's name, the collection's label, and its name from its object path (the
        // same whether it is locked or not; for KeePassXC the database file's name).
        let keepassxc = ProcessInfo.processInfo.environment["HOSTBOOK_TEST_BACKEND"] == "keepassxc"
        let (service, label, collection) = keepassxc ? ("keepassxc", "hostbook test", "secrets")
                                                     : ("gnome-keyring-daemon", "Login", "login")
        let r = try hb.run(["vault", "status"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "ok: \(service), default keyring \"\(label)\" is unlocked\n")
        XCTAssertEqual(r.stderr, "")

        let json = try hb.run(["vault", "status", "--json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(json.stdout, """
        {
          "status": "ok",
          "headless": false,
          "bus": null,
          "service": "\(service)",
          "collection": "\(collection)",
          "message": null,
          "fix": null
        }

        """)
    }

    func testHelpDescribesTheCommand() throws {
        let r = try hb.run(["vault", "status", "--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Check that the Secret Service (keyring) is reachable and unlocked"), r.stdout)
    }
}
