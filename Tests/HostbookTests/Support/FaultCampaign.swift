// What the fault campaign (FaultCampaignTests, benchmarks/fault-campaign.sh) checks after
// every fault, on a HostbookFixture's database and the account's Secret Service: the
// database passes `PRAGMA integrity_check`, `hostbook doctor` names every orphaned or missing
// secret with a fix (an orphan's fix, a `secret-tool clear` line, is run, and the next doctor
// is healthy), no row points at a missing secret, and every secret saved before is still
// there. docs/reliability.md describes the campaign and its figures.
import Foundation
import XCTest

struct FaultCampaign {
    let hb: HostbookFixture

    /// The campaign's size: HOSTBOOK_FAULT_ITERATIONS (the full run of
    /// benchmarks/fault-campaign.sh), else `small` (the test suite's run).
    static func iterations(small: Int) -> Int {
        ProcessInfo.processInfo.environment["HOSTBOOK_FAULT_ITERATIONS"].flatMap(Int.init).map { max($0, 1) } ?? small
    }

    /// One line of figures for benchmarks/fault-campaign.sh to collect.
    static func report(_ test: String, _ figures: KeyValuePairs<String, Int>) {
        print("fault-campaign \(test): " + figures.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }

    /// Runs hostbook with HOSTBOOK_FAULT_STEP=`step` and requires that it was killed there
    /// (Process reports an uncaught signal as its number: 9).
    @discardableResult
    func killedAt(_ step: String, _ args: [String], stdin: String? = nil,
                  file: StaticString = #filePath, line: UInt = #line) throws -> HostbookResult {
        let r = try hb.run(args, bytes: stdin.map { Data($0.utf8) }, environment: ["HOSTBOOK_FAULT_STEP": step])
        XCTAssertEqual(r.status, SIGKILL, "hostbook \(args.joined(separator: " ")) was to stop at \(step): \(r.stderr)", file: file, line: line)
        return r
    }

    var databaseID: String { (try? Shell.sql(hb.db, "SELECT value FROM meta WHERE key = 'database_id'")) ?? "" }

    /// Every secret the vault holds for a host's password (payload version byte dropped).
    func passwords(ofHost name: String) throws -> [String] {
        let owner = try Shell.sql(hb.db, "SELECT uuid FROM hosts WHERE name = '\(name)'")
        guard !owner.isEmpty else { return [] }
        let r = try Shell.run("secret-tool search --all db \"$DBID\" kind password owner \"$OWNER\" 2>&1",
                              environment: ["DBID": databaseID, "OWNER": owner], account: hb.account)
        return r.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("secret = \u{01}") ? String(line.dropFirst("secret = \u{01}".count)) : nil
        }
    }

    /// Whether hostbook reads the private key of `key` from the vault.
    func privateKeyReadable(_ key: String) throws -> Bool {
        let r = try hb.run(["keys", "export", key, "--no-passphrase"])
        return r.status == 0 && r.stdout.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----")
    }

    /// `hostbook doctor --json`'s findings (check, message, fix).
    func findings() throws -> [[String: String]] {
        let r = try hb.run(["doctor", "--json"])
        let doc = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any] ?? [:]
        return (doc["findings"] as? [[String: Any]] ?? []).map { f in f.compactMapValues { $0 as? String } }
    }

    /// The checks after a fault. `orphans`: how many leftover items doctor must name (nil:
    /// any number, for faults at random moments). Every orphan's fix is run, and doctor is
    /// healthy afterwards. `passwords`: host → the passwords one of which must still be in
    /// the vault; `keys`: keys whose private key must still be readable. Returns the number
    /// of orphans found.
    @discardableResult
    func check(after what: String, orphans: Int? = nil, passwords: [String: Set<String>] = [:], keys: [String] = [],
               file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok", what, file: file, line: line)
        let found = try findings()
        for f in found {
            XCTAssertEqual(f["check"], "vault.orphan", "\(what): only leftover items may be found, never a missing secret: \(f)", file: file, line: line)
        }
        let leftovers = found.filter { $0["check"] == "vault.orphan" }
        if let orphans { XCTAssertEqual(leftovers.count, orphans, "\(what): \(found)", file: file, line: line) }
        for f in leftovers {
            let fix = f["fix"] ?? ""
            XCTAssertTrue(fix.hasPrefix("Delete it with: secret-tool clear "), "\(what): \(fix)", file: file, line: line)
            let r = try Shell.run(String(fix.dropFirst("Delete it with: ".count)), account: hb.account)
            XCTAssertEqual(r.status, 0, "\(what): \(fix): \(r.stderr)", file: file, line: line)
        }
        if !leftovers.isEmpty {
            XCTAssertEqual(try findings().count, 0, "\(what): doctor is healthy once its fixes are run", file: file, line: line)
        }
        for (host, given) in passwords {
            let held = Set(try self.passwords(ofHost: host))
            XCTAssertFalse(held.isDisjoint(with: given), "\(what): host \(host) lost its password (vault holds \(held.count))", file: file, line: line)
        }
        for key in keys {
            XCTAssertTrue(try privateKeyReadable(key), "\(what): key \(key) lost its private key", file: file, line: line)
        }
        return leftovers.count
    }
}
