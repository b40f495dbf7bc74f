// The ssh_config importer's decisions against a real database: add, re-import (unchanged,
// updated, never duplicated), key links by public half, jump hosts, name clashes, loops,
// and a dry run that writes nothing.
import Foundation
@testable import HostStore
import KeyFormats
import XCTest
import TestSupport

final class SSHConfigImporterTests: DatabaseTestCase {
    func candidate(_ alias: String, _ hostname: String, port: Int = 22, user: String? = nil, jump: SSHConfigJump = .none,
                   identities: [SSHConfigIdentity] = [], line: Int = 1) -> SSHConfigCandidate {
        SSHConfigCandidate(alias: alias, hostname: hostname, port: port, user: user, jump: jump, identities: identities,
                           sourceFile: "/home/u/.ssh/config", sourceLine: line)
    }

    func importing(_ c: [SSHConfigCandidate], dryRun: Bool = false) throws -> SSHConfigImportReport {
        try SSHConfigImporter(connection: db.connection).run(c, dryRun: dryRun)
    }

    func testAddThenReimportIsUnchangedThenUpdated() throws {
        let first = try importing([candidate("web", "web.example.com", port: 2200, user: "deploy", line: 3)])
        XCTAssertEqual(first.hosts.map(\.action), [.added])
        let web = try XCTUnwrap(try db.host(named: "web"))
        XCTAssertEqual([web.hostname, "\(web.port)", web.user, web.source, web.sourceID], ["web.example.com", "2200", "deploy", "ssh-config", "web"])
        let origin = try db.connection.query("SELECT alias, source_file, source_line FROM ssh_config_hosts")
        XCTAssertEqual(origin.first?.values, [.text("web"), .text("/home/u/.ssh/config"), .int(3)])

        XCTAssertEqual(try importing([candidate("web", "web.example.com", port: 2200, user: "deploy", line: 3)]).hosts.map(\.action), [.unchanged])
        // The user renamed it: a re-import still finds it by alias and updates it.
        try db.editHost("web", { var c = HostChanges(); c.rename = "frontend"; return c }())
        let third = try importing([candidate("web", "10.0.0.7", line: 9)])
        XCTAssertEqual(third.hosts.map(\.action), [.updated])
        XCTAssertEqual(third.hosts.first?.name, "frontend")
        XCTAssertEqual(try db.hosts().count, 1)
        let h = try XCTUnwrap(try db.host(named: "frontend"))
        XCTAssertEqual([h.hostname, "\(h.port)"], ["10.0.0.7", "22"])
        XCTAssertNil(h.user)
        XCTAssertEqual(try db.connection.query("SELECT source_line FROM ssh_config_hosts").first?.int(0), 9)
    }

    func testJumpHostsFromThisImportAndSavedOnesAndWhatCannotBeKept() throws {
        try db.addHost(NewHost(name: "bastion", hostname: "b.example.com", user: "ops"))
        let report = try importing([
            candidate("app", "app.internal", jump: .hop(host: "gw", user: nil, port: nil, text: "gw")),
            candidate("gw", "gw.example.com"),
            candidate("db", "db.internal", jump: .hop(host: "bastion", user: "ops", port: nil, text: "ops@bastion")),
            candidate("x", "x.internal", jump: .hop(host: "bastion", user: "other", port: nil, text: "other@bastion")),
            candidate("y", "y.internal", jump: .hop(host: "nowhere", user: nil, port: nil, text: "nowhere")),
            candidate("z", "z.internal", jump: .unrepresentable(text: "a,b", reason: "hostbook keeps one jump host")),
        ])
        XCTAssertEqual(report.hosts.map(\.action), [.added, .added, .added, .added, .added, .added])
        XCTAssertEqual(try db.host(named: "app")?.jump, "gw")
        XCTAssertEqual(try db.host(named: "db")?.jump, "bastion")
        XCTAssertNil(try db.host(named: "x")?.jump)
        XCTAssertEqual(report.hosts[3].notImported.count, 1)
        XCTAssertTrue(report.hosts[3].notImported[0].text.contains("user differs"))
        XCTAssertTrue(report.hosts[4].notImported[0].text.contains("no saved or imported host is named 'nowhere'"))
        XCTAssertEqual(report.hosts[5].notImported, ["ProxyJump a,b: hostbook keeps one jump host"])
    }

    /// A jump host renamed since the last import is still the one the configuration names.
    func testAJumpToARenamedImportedHost() throws {
        _ = try importing([candidate("gw", "gw.example")])
        try db.editHost("gw", { var c = HostChanges(); c.rename = "gateway"; return c }())
        let report = try importing([candidate("gw", "gw.example"), candidate("app", "app.internal", jump: .hop(host: "gw", user: nil, port: nil, text: "gw"))])
        XCTAssertEqual(report.hosts.map(\.action), [.unchanged, .added])
        XCTAssertEqual(try db.host(named: "app")?.jump, "gateway")
    }

    func testLoopsAreRefused() throws {
        let report = try importing([
            candidate("a", "a.example", jump: .hop(host: "b", user: nil, port: nil, text: "b")),
            candidate("b", "b.example", jump: .hop(host: "a", user: nil, port: nil, text: "a")),
            candidate("c", "c.example", jump: .hop(host: "c", user: nil, port: nil, text: "c")),
        ])
        XCTAssertEqual(try db.host(named: "a")?.jump, "b")
        XCTAssertNil(try db.host(named: "b")?.jump)
        XCTAssertNil(try db.host(named: "c")?.jump)
        XCTAssertTrue(report.hosts[1].notImported[0].text.contains("loop of jump hosts (b -> a -> b)"), "\(report.hosts[1].notImported)")
        XCTAssertTrue(report.hosts[2].notImported[0].text.contains("loop of jump hosts (c -> c)"))
    }

    func testKeysAreLinkedByTheirPublicHalf() throws {
        let pub = try String(contentsOfFile: PackageRoot.path + "/testkeys/openssh/ed25519_3des-cbc.pub", encoding: .utf8)
        let key = try PublicKeyLine.parse(pub).key
        _ = try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: "laptop", publicKey: key, comment: "", format: "openssh"))
        let report = try importing([candidate("web", "web.example", identities: [
            SSHConfigIdentity(path: "~/.ssh/missing", fingerprint: nil, problem: "the file does not exist"),
            SSHConfigIdentity(path: "~/.ssh/other", fingerprint: "SHA256:notimported"),
            SSHConfigIdentity(path: "~/.ssh/id_ed25519", fingerprint: key.sha256Fingerprint),
        ])])
        let web = try XCTUnwrap(try db.host(named: "web"))
        XCTAssertEqual(web.key, "laptop")
        XCTAssertEqual(web.auth, .key)
        XCTAssertEqual(report.hosts[0].key, "laptop")
        XCTAssertEqual(report.hosts[0].notImported.count, 2)
        XCTAssertEqual(report.hosts[0].notImported[0], "IdentityFile ~/.ssh/missing: the file does not exist")
        XCTAssertEqual(report.hosts[0].notImported[1], ImportNote("IdentityFile ~/.ssh/other: no imported hostbook key has this public key",
                                                                  remedy: .importKeyThenImportAgain(path: "~/.ssh/other")))
    }

    func testClashesAndInvalidValuesAreSkippedWithTheReason() throws {
        try db.addHost(NewHost(name: "Web", hostname: "manual.example"))
        let report = try importing([
            candidate("web", "web.example"),
            candidate("bad name!", "x.example"),
            candidate("h", "not a hostname"),
            candidate("u", "u.example", user: "-oProxyCommand=x"),
            SSHConfigCandidate(alias: "t", hostname: "t", sourceFile: "/c", sourceLine: 4, skipReason: "HostName has %x"),
        ])
        XCTAssertEqual(report.hosts.map(\.action), [.skipped, .skipped, .skipped, .skipped, .skipped])
        XCTAssertEqual(report.hosts[0].reason, "a host named 'Web' already exists (not from this ssh_config)")
        XCTAssertEqual(report.hosts[4].reason, "HostName has %x")
        XCTAssertEqual(try db.hosts().map(\.name), ["Web"])
    }

    func testNamesDifferingInCaseAndVanishedHosts() throws {
        let first = try importing([candidate("Web", "web.example"), candidate("web", "other.example"), candidate("old", "old.example")])
        XCTAssertEqual(first.hosts.map(\.action), [.added, .skipped, .added])
        XCTAssertEqual(first.hosts[1].reason, "the Host name 'Web' earlier in the configuration differs only in letter case (hostbook names ignore case)")
        let second = try SSHConfigImporter(connection: db.connection).run([candidate("Web", "web.example")], dryRun: false,
                                                                           files: ["/home/u/.ssh/config"])
        XCTAssertEqual(second.notes, [ImportNote("host 'old' (Host old, /home/u/.ssh/config line 1) is no longer in the configuration; it was kept",
                                                 remedy: .removeHost(name: "old"))])
        XCTAssertNotNil(try db.host(named: "old"))
        // Another file's hosts are not named.
        XCTAssertEqual(try SSHConfigImporter(connection: db.connection).run([], dryRun: true, files: ["/elsewhere"]).notes, [])
    }

    func testDryRunWritesNothing() throws {
        let before = try MigrationTests.dump(db.connection)
        let report = try importing([candidate("web", "web.example"), candidate("db", "db.example")], dryRun: true)
        XCTAssertTrue(report.dryRun)
        XCTAssertEqual(report.hosts.map(\.action), [.added, .added])
        XCTAssertEqual(try MigrationTests.dump(db.connection), before)
    }

    /// 10,000 hosts in one transaction, then the same again (all unchanged); SQLite's work
    /// grows in step with the hosts, counted, not timed: ten times the hosts of a 1,000-host
    /// import cost about ten times its instructions (a B-tree's log n adds a little), where a
    /// query of every host per host would cost a hundred times.
    func testTenThousandHosts() throws {
        func work(_ n: Int) throws -> (first: Int, again: Int) {
            let folder = try TempFolder()
            let db = try HostDatabase.open(path: folder.file("h\(n).db"))
            let hosts = (0..<n).map { candidate("h\($0)", "10.1.\($0 / 250).\($0 % 250 + 1)", user: "u", line: $0 * 4 + 1) }
            let first = try db.connection.countingInstructions { try SSHConfigImporter(connection: db.connection).run(hosts, dryRun: false) }
            XCTAssertEqual(first.result.count(.added), n)
            let again = try db.connection.countingInstructions { try SSHConfigImporter(connection: db.connection).run(hosts, dryRun: false) }
            XCTAssertEqual(again.result.count(.unchanged), n)
            XCTAssertEqual(try db.hosts().count, n)
            return (first.instructions, again.instructions)
        }
        let small = try work(1_000), large = try work(10_000)
        print("SQLite instructions, 1,000 → 10,000 hosts: import \(small.first) → \(large.first), re-import \(small.again) → \(large.again)")
        XCTAssertLessThanOrEqual(Double(large.first) / Double(small.first), 20, "the import's work grows faster than the hosts")
        XCTAssertLessThanOrEqual(Double(large.again) / Double(small.again), 20, "the re-import's work grows faster than the hosts")
    }
}
