// Hosts in a real database file: uniqueness, tags, keys, jump hosts and their loops.
@testable import HostStore
import XCTest

final class HostRepositoryTests: DatabaseTestCase {
    func rejected(_ body: () throws -> Void, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { e in
            XCTAssertEqual((e as? HostStoreError)?.kind, .rejected, file: file, line: line)
            XCTAssertEqual((e as? HostStoreError)?.message, message, file: file, line: line)
        }
    }

    func testAddAndReadBack() throws {
        let h = try db.addHost(NewHost(name: "web", hostname: "10.0.0.1", port: 2200, user: "root", tags: ["b", "a", "B"], note: "n"))
        XCTAssertEqual(h.tags, ["a", "b"])
        XCTAssertEqual(h.auth, .agent)
        XCTAssertEqual(h.source, "manual")
        XCTAssertEqual(try db.host(named: "WEB"), h)
    }

    func testNamesAreUniqueRegardlessOfCase() throws {
        try db.addHost(NewHost(name: "Web", hostname: "a.example"))
        rejected({ try db.addHost(NewHost(name: "wEB", hostname: "b.example")) }, "a host named 'Web' already exists")
        try db.addHost(NewHost(name: "other", hostname: "b.example"))
        rejected({ try db.editHost("other", { var c = HostChanges(); c.rename = "WEB"; return c }()) }, "a host named 'Web' already exists")
        // Renaming to a different case of its own name is fine.
        XCTAssertEqual(try db.editHost("web", { var c = HostChanges(); c.rename = "web"; return c }()).name, "web")
    }

    func testFilterByTagAndSource() throws {
        try db.addHost(NewHost(name: "a", hostname: "a.example", tags: ["prod", "eu"]))
        try db.addHost(NewHost(name: "b", hostname: "b.example", tags: ["prod"]))
        try db.addHost(NewHost(name: "c", hostname: "c.example"))
        try db.connection.execute("UPDATE hosts SET source = 'tailscale', source_id = 'n1' WHERE name = 'c'")
        XCTAssertEqual(try db.hosts(tags: ["PROD"]).map(\.name), ["a", "b"])
        XCTAssertEqual(try db.hosts(tags: ["prod", "eu"]).map(\.name), ["a"])
        XCTAssertEqual(try db.hosts(source: "tailscale").map(\.name), ["c"])
        XCTAssertEqual(try db.hosts(source: "manual").map(\.name), ["a", "b"])
    }

    func testJumpHostsMustExistAndNeverLoop() throws {
        rejected({ try db.addHost(NewHost(name: "a", hostname: "a.example", jump: "nope")) }, "jump host 'nope' does not exist")
        rejected({ try db.addHost(NewHost(name: "a", hostname: "a.example", jump: "A")) }, "host 'a' cannot be its own jump host")
        try db.addHost(NewHost(name: "a", hostname: "a.example"))
        try db.addHost(NewHost(name: "b", hostname: "b.example", jump: "a"))
        try db.addHost(NewHost(name: "c", hostname: "c.example", jump: "b"))
        var c = HostChanges()
        c.jump = .set("c")
        rejected({ try db.editHost("a", c) }, "jump host 'c' would make a loop: a -> c -> b -> a")
        c.jump = .set("a")
        rejected({ try db.editHost("a", c) }, "host 'a' cannot be its own jump host")
        rejected({ try db.removeHost("b") }, "host 'b' is the jump host of 'c'")
        c.jump = .clear
        XCTAssertNil(try db.editHost("c", c).jump)
        XCTAssertEqual(try db.removeHost("b").name, "b")
    }

    func testKeysMustExistAndSetAuth() throws {
        rejected({ try db.addHost(NewHost(name: "a", hostname: "a.example", key: "laptop")) }, "key 'laptop' does not exist")
        try db.connection.run("INSERT INTO keys(uuid, name, algorithm, bits, fingerprint, public_key, format, created_at) VALUES ('u', 'Laptop', 'ssh-ed25519', 256, 'SHA256:x', x'00', 'openssh', 'now')")
        let h = try db.addHost(NewHost(name: "a", hostname: "a.example", key: "laptop"))
        XCTAssertEqual(h.key, "Laptop")
        XCTAssertEqual(h.auth, .key)
        var c = HostChanges()
        c.password = .set
        XCTAssertEqual(try db.editHost("a", c).auth, .password)
        c.password = .clear
        XCTAssertEqual(try db.editHost("a", c).auth, .key)
        c = HostChanges()
        c.key = .clear
        XCTAssertEqual(try db.editHost("a", c).auth, .agent)
    }

    func testEditTagsAndFields() throws {
        try db.addHost(NewHost(name: "a", hostname: "a.example", tags: ["x", "y"]))
        var c = HostChanges()
        c.addTags = ["z", "X"]
        c.removeTags = ["Y"]
        c.port = 2022
        c.user = "ops"
        c.hostname = "::1"
        let h = try db.editHost("a", c)
        XCTAssertEqual(h.tags, ["x", "z"])
        XCTAssertEqual(h.port, 2022)
        XCTAssertEqual(h.user, "ops")
        XCTAssertEqual(h.hostname, "::1")
    }

    func testAFailureBeforeCommitWritesNothing() throws {
        struct Boom: Error {}
        XCTAssertThrowsError(try db.addHost(NewHost(name: "a", hostname: "a.example", tags: ["t"])) { _ in throw Boom() })
        XCTAssertEqual(try db.hosts().count, 0)
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM host_tags").first?.int(0), 0)
    }

    func testRemovingAMissingHostIsNotFound() {
        XCTAssertThrowsError(try db.removeHost("ghost")) { e in
            XCTAssertEqual((e as? HostStoreError)?.kind, .notFound)
            XCTAssertEqual((e as? HostStoreError)?.message, "no host named 'ghost'")
        }
    }
}
