// End to end: hostbook doctor with no Secret Service reachable (the binary started without
// DBUS_SESSION_BUS_ADDRESS). The rest of doctor's report runs in-process:
// HostbookLogicTests/DoctorCommandLogicTests; the database checks themselves
// (unreadable file, newer schema, damaged pages, unfinished backup):
// HostStoreTests/DatabaseChecksTests.
import Foundation
import XCTest

final class DoctorCommandTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws {
        hb = try HostbookFixture()
        // A home of its own, so doctor's ssh-config line does not depend on whether the user
        // running the tests has installed hostbook's ssh configuration.
        hb.environment["HOME"] = hb.dir.file("home")
        hb.environment["XDG_CONFIG_HOME"] = hb.dir.file("home/.config")
    }

    struct Report {
        let status: Int32
        let checks: [String]
        let messages: [String]
        let healthy: Bool
    }

    func doctor(removing: [String] = []) throws -> Report {
        let r = try hb.run(["doctor", "--json"], removing: removing)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any], r.stderr)
        let findings = try XCTUnwrap(o["findings"] as? [[String: Any]])
        for f in findings { XCTAssertFalse((f["fix"] as? String ?? "").isEmpty, "every finding says how to fix it") }
        return Report(status: r.status, checks: findings.compactMap { $0["check"] as? String },
                      messages: findings.compactMap { $0["message"] as? String }, healthy: o["healthy"] as? Bool ?? false)
    }

    func testUnreachableVaultIsAFindingNotACrash() throws {
        try hb.ok("add", "a", "--hostname", "a.example")
        let r = try doctor(removing: ["DBUS_SESSION_BUS_ADDRESS"])
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.healthy)
        XCTAssertEqual(r.checks, ["vault.status"])
    }
}
