// A host's password leaves the vault with the host, in-process (InProcessCommand runs
// Hostbook.main, the real vault: scripts/with-keyring, and again scripts/with-keepassxc).
// Moved from HostbookTests/HostPasswordTests, which keeps what needs the binary: each run a
// new process for KeePassXC, and no session bus or a locked keyring.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class HostPasswordLogicTests: XCTestCase {
    var hb: InProcessCommand!

    override func tearDown() { hb = nil }

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service: run inside scripts/with-keyring")
        hb = try InProcessCommand()
    }

    func uuid(_ host: String) throws -> String { try hb.sql("SELECT uuid FROM hosts WHERE name = '\(host)'") }
    func databaseID() throws -> String { try hb.sql("SELECT value FROM meta WHERE key = 'database_id'") }

    /// The number of vault items for (this database, kind password, owner uuid).
    func vaultItems(owner: String) throws -> Int {
        let r = try hb.shell("secret-tool search --all db \"$DBID\" kind password owner \"$OWNER\" 2>&1 | grep -c '^\\[' || true",
                             environment: ["DBID": try databaseID(), "OWNER": owner])
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func testRemoveDeletesThePassword() throws {
        try hb.ok("add", "db", "--hostname", "db.example", "--password-stdin", stdin: "pw-to-remove")
        let owner = try uuid("db")
        XCTAssertEqual(try vaultItems(owner: owner), 1)
        try hb.ok("remove", "db", "--yes")
        XCTAssertEqual(try vaultItems(owner: owner), 0)
        let doctor = try hb.run("doctor")
        XCTAssertEqual(doctor.status, 0, doctor.stdout)
    }
}
