// The listings that `hostbook list`, `list --json` and `ssh-config` read (HostDatabase.hosts
// and forEachHost): every host with its tags, aliases and Tailscale details in a fixed
// number of SQL statements, whatever the number of hosts, never one query per host; and
// SQLite's work grows in step with the hosts. Counted, not timed (benchmarks/README.md,
// "The everyday commands at 10,000 hosts").
@testable import HostStore
import XCTest
import TestSupport

final class HostListingWorkTests: XCTestCase {
    /// A database of `count` hosts, each with two tags and an alias, every fifth with a
    /// jump host and a note.
    private func database(hosts count: Int, in folder: TempFolder) throws -> HostDatabase {
        let db = try HostDatabase.open(path: folder.file("h\(count).db"))
        for i in 0..<count {
            try db.addHost(NewHost(name: "host-\(i)", hostname: "host-\(i).example", port: 22 + i % 3, user: "u\(i % 7)",
                                   tags: ["env\(i % 3)", "team\(i % 11)"], jump: i % 5 == 4 ? "host-0" : nil,
                                   note: i % 5 == 0 ? "note \(i)" : nil, aliases: ["alias-\(i)"]))
        }
        return db
    }

    private struct Work: Equatable {
        var listStatements = 0, streamStatements = 0
        var listInstructions = 0, streamInstructions = 0
    }

    private func work(hosts count: Int) throws -> Work {
        let folder = try TempFolder()
        let db = try database(hosts: count, in: folder)
        var w = Work()
        let (hosts, statements) = try db.connection.countingStatements { try db.hosts() }
        XCTAssertEqual(hosts.count, count)
        XCTAssertEqual(hosts.first { $0.name == "host-4" }?.tags, ["env1", "team4"])
        XCTAssertEqual(hosts.first { $0.name == "host-4" }?.aliases, ["alias-4"])
        w.listStatements = statements
        w.listInstructions = try db.connection.countingInstructions { try db.hosts() }.instructions
        var rows = 0
        w.streamStatements = try db.connection.countingStatements { try db.forEachHost { row in rows += row.tags.count + row.aliases.count } }.statements
        XCTAssertEqual(rows, 3 * count)
        w.streamInstructions = try db.connection.countingInstructions { try db.forEachHost { _ in } }.instructions
        return w
    }

    func testTheListingsReadEveryHostInAFixedNumberOfStatements() throws {
        let small = try work(hosts: 10)
        let large = try work(hosts: 100)
        print("SQLite statements and instructions, 10 → 100 hosts: hosts() \(small.listStatements) → \(large.listStatements), "
              + "\(small.listInstructions) → \(large.listInstructions); forEachHost \(small.streamStatements) → \(large.streamStatements), "
              + "\(small.streamInstructions) → \(large.streamInstructions)")
        XCTAssertEqual(small.listStatements, large.listStatements, "hosts(): a query per host")
        XCTAssertEqual(small.streamStatements, large.streamStatements, "forEachHost: a query per host")
        XCTAssertLessThanOrEqual(large.listStatements, 6)
        XCTAssertLessThanOrEqual(large.streamStatements, 6)
        // Ten times the hosts: about ten times SQLite's work (sorting by name adds a little).
        XCTAssertLessThanOrEqual(Double(large.listInstructions) / Double(small.listInstructions), 14)
        XCTAssertLessThanOrEqual(Double(large.streamInstructions) / Double(small.streamInstructions), 14)
    }
}
