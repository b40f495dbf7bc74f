// The fault campaign on the real binary, the real database and the real keyring (issue 28;
// docs/reliability.md): SIGKILL at each named step of every write across the two stores
// (HOSTBOOK_FAULT_STEP, debug builds) and at random moments, a full disk, ten writers and the
// signing agent at once, and the keyring daemon killed during a write. After each fault
// FaultCampaign.check holds the database and the vault to what they must be.
// benchmarks/fault-campaign.sh runs the loops at full size (HOSTBOOK_FAULT_ITERATIONS).
import Foundation
import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class FaultCampaignTests: XCTestCase {
    var hb: HostbookFixture!
    var campaign: FaultCampaign { FaultCampaign(hb: hb) }

    override func setUpWithError() throws {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service: run inside scripts/with-keyring")
        hb = try HostbookFixture()
    }

    override func tearDown() {
        if let hb { _ = try? hb.run(["agent", "stop"]) }
        hb = nil
    }

    /// SIGKILL at every named step of keys and passwords (Credentials/CredentialStoreFaultSteps.swift),
    /// one after the other on one database: each leaves what the two-store order promises.
    func testSIGKILLAtEveryNamedStepOfAKeyOrPasswordWrite() throws {
        let c = campaign
        try hb.ok("keys", "generate", "k0")
        try hb.ok("add", "p0", "--hostname", "p0.example", "--password-stdin", stdin: "pw-0\n")
        try hb.ok("add", "a0", "--hostname", "a0.example")
        var saved: [String: Set<String>] = ["p0": ["pw-0"]]
        var keys = ["k0"]
        var stepsHit = Set<String>()

        // A key: its item first, then its row.
        try c.killedAt("key.item-stored", ["keys", "generate", "k1"])
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM keys WHERE name = 'k1'"), "0")
        try c.check(after: "key.item-stored", orphans: 1, passwords: saved, keys: keys)
        try c.killedAt("key.row-saved", ["keys", "generate", "k1"])
        keys.append("k1")
        try c.check(after: "key.row-saved", orphans: 0, passwords: saved, keys: keys)
        try c.killedAt("key.row-removed", ["keys", "remove", "k1", "--yes"])
        keys.removeLast()
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM keys WHERE name = 'k1'"), "0")
        try c.check(after: "key.row-removed", orphans: 1, passwords: saved, keys: keys)
        stepsHit.formUnion(["key.item-stored", "key.row-saved", "key.row-removed"])

        // A new host's password: its item inside the row's transaction, which the kill rolls back.
        try c.killedAt("password.item-stored", ["add", "p1", "--hostname", "p1.example", "--password-stdin"], stdin: "pw-1\n")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'p1'"), "0")
        try c.check(after: "password.item-stored", orphans: 1, passwords: saved, keys: keys)
        try c.killedAt("password.row-saved", ["add", "p1", "--hostname", "p1.example", "--password-stdin"], stdin: "pw-1\n")
        saved["p1"] = ["pw-1"]
        try c.check(after: "password.row-saved", orphans: 0, passwords: saved, keys: keys)
        stepsHit.formUnion(["password.item-stored", "password.row-saved"])

        // A changed password: staged beside the old one, which goes once the row is saved.
        try c.killedAt("password.staged", ["edit", "p0", "--password-stdin"], stdin: "pw-0b\n")
        XCTAssertEqual(Set(try c.passwords(ofHost: "p0")), ["pw-0", "pw-0b"], "the old password is still there")
        saved["p0"] = ["pw-0", "pw-0b"]
        try c.check(after: "password.staged (p0)", orphans: 0, passwords: saved, keys: keys)
        try c.killedAt("password.staged", ["edit", "a0", "--password-stdin"], stdin: "pw-a\n")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT auth FROM hosts WHERE name = 'a0'"), "agent")
        try c.check(after: "password.staged (a0)", orphans: 1, passwords: saved, keys: keys)
        try c.killedAt("password.edit-saved", ["edit", "p1", "--password-stdin"], stdin: "pw-1b\n")
        saved["p1"] = ["pw-1b"]
        try c.check(after: "password.edit-saved", orphans: 0, passwords: saved, keys: keys)
        // The next write of the password deletes what the killed one left.
        try hb.ok("edit", "p0", "--password-stdin", stdin: "pw-0c\n")
        XCTAssertEqual(try c.passwords(ofHost: "p0"), ["pw-0c"])
        saved["p0"] = ["pw-0c"]
        stepsHit.formUnion(["password.staged", "password.edit-saved"])

        // Removing: the row first, then the item.
        try c.killedAt("host.row-removed", ["remove", "p1", "--yes"])
        saved["p1"] = nil
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'p1'"), "0")
        try c.check(after: "host.row-removed", orphans: 1, passwords: saved, keys: keys)
        stepsHit.insert("host.row-removed")

        // A step name no write has stops nothing.
        try hb.ok("add", "x0", "--hostname", "x0.example", "--password-stdin", stdin: "pw-x\n")
        XCTAssertEqual(try hb.run(["edit", "x0", "--tag", "t"], bytes: nil, environment: ["HOSTBOOK_FAULT_STEP": "no.such-step"]).status, 0)
        FaultCampaign.report("named-steps", ["steps": stepsHit.count, "kills": 11, "failures": 0])
    }
}
