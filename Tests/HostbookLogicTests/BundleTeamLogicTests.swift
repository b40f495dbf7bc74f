// Team bundles with two maintainers and a member (issue 33), in-process (InProcessCommand)
// with each maintainer's standing agent started from the built binary: over a bare git
// repository reached by path, A publishes, B (a second maintainer, a trusted signer)
// republishes with their change through their own agent, C (a member) follows. Serials
// never go backwards, an export that drops what the bundle carried needs --allow-removals,
// a member cannot republish the bundle's hosts, and unsubscribe removes what the bundle
// brought and nothing else. Moved from HostbookTests/BundleTeamTests, which keeps the
// member on a second ordinary account behind a private sshd.
import Foundation
import XCTest

extension BundleSigningLogicTests {
    func testTwoMaintainersAndAMember() throws {
        let fx = fx!
        let dbB = dbB!
        let dbC = fx.dir.file("c/hostbook.db")
        func onC(_ args: String...) throws -> InProcessCommand.Outcome { try fx.run(args + ["--db", dbC]) }
        func hosts(_ db: String) throws -> [String: String] {
            let r = try fx.run(["list", "--json", "--db", db])
            let list = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0["source"] as? String ?? "") })
        }
        func hostsUser(_ db: String, _ name: String) throws -> String? {
            let shown = try JSONSerialization.jsonObject(with: try fx.run(["show", name, "--json", "--db", db]).stdoutBytes) as? [String: Any]
            return shown?["user"] as? String
        }
        func export(_ args: [String], db: String? = nil) throws -> InProcessCommand.Outcome {
            try fx.run(["bundle", "export", "--name", "team"] + args + (db.map { ["--db", $0] } ?? []))
        }

        // A publishes serial 1 (no snippet unless chosen: by name, or by a tag given).
        let signerA = try publisher()
        try fx.ok("snippets", "add", "mine", "--command", "uptime")
        try fx.ok("snippets", "add", "disk", "--command", "df -h", "--tag", "team")
        try repository()
        let pub = fx.dir.file("pub")
        let first = try export(["--sign", "signer", "--tag", "team", "-o", pub])
        XCTAssertEqual(first.status, 0, first.stderr)
        let text = try String(contentsOfFile: pub + "/bundle.txt", encoding: .utf8)
        XCTAssertFalse(text.contains("uptime"), "a snippet is published only when chosen")
        XCTAssertTrue(text.contains("df -h"), "the snippet with the tag is published")
        try push("serial 1")

        // B: a second maintainer with their own key and agent; C: a member.
        XCTAssertEqual(try self.onB("keys", "generate", "second").status, 0)
        let shown = try JSONSerialization.jsonObject(with: try fx.run(["keys", "show", "second", "--json", "--db", dbB]).stdoutBytes) as? [String: Any] ?? [:]
        let signerB = (shown["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        for db in [dbB, dbC] {
            XCTAssertEqual(try fx.run(["bundle", "trust", "team", "--signer", signerA, "--signer", signerB, "--db", db]).status, 0)
            let sub = try fx.run(["bundle", "subscribe", "team", fx.dir.file("origin.git"), "--db", db])
            XCTAssertEqual(sub.status, 0, sub.stderr)
        }
        try fx.ok("bundle", "trust", "team", "--signer", signerB)
        XCTAssertEqual(try onC("add", "own", "--hostname", "10.7.7.7").status, 0)

        // B republishes the bundle's hosts with a host of theirs; an export that drops them is refused first.
        let socketB = fx.dir.file("b-agent.sock")
        try fx.startAgent(["--socket", socketB, "--db", dbB])
        defer { fx.stopAgent(["--socket", socketB, "--db", dbB]) }
        XCTAssertEqual(try self.onB("add", "cache", "--hostname", "10.0.0.8", "--tag", "team").status, 0)
        try sh("git clone -q \"$DIR/origin.git\" \"$DIR/pubB\" 2>/dev/null")
        let pubB = fx.dir.file("pubB")
        let dropping = try export(["--sign", "second", "--tag", "cache-only", "-o", pubB, "--socket", socketB], db: dbB)
        XCTAssertEqual(dropping.status, 5, dropping.stderr)
        XCTAssertTrue(dropping.stderr.contains("drops 2 hosts (db, web)"), dropping.stderr)
        XCTAssertTrue(dropping.stderr.contains("--allow-removals"), dropping.stderr)
        let second = try export(["--sign", "second", "--tag", "team", "-o", pubB, "--socket", socketB, "--json"], db: dbB)
        XCTAssertEqual(second.status, 0, second.stderr)
        let written = try JSONSerialization.jsonObject(with: second.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(written["serial"] as? Int, 2)
        XCTAssertEqual(written["hosts"] as? Int, 3)
        XCTAssertEqual(written["republished"] as? Bool, true)
        try sh("cd \"$DIR/pubB\" && git add -A && git commit -q -m 'serial 2' && git push -q origin HEAD")
        XCTAssertEqual(try onC("bundle", "update").status, 0)
        XCTAssertEqual(try hosts(dbC), ["web": "bundle:team", "db": "bundle:team", "cache": "bundle:team", "own": "manual"])

        // C sets their own user and key on web: two updates keep them, and say so only when
        // the bundle's value changes; web is not listed as updated when it did not change.
        XCTAssertEqual(try onC("keys", "generate", "member").status, 0)
        XCTAssertEqual(try onC("edit", "web", "--user", "member", "--key", "member").status, 0)
        let shownWeb = try onC("show", "web")
        XCTAssertTrue(shownWeb.stdout.contains("user (yours):") && shownWeb.stdout.contains("member; the bundle's: deploy"), shownWeb.stdout)
        for (serial, change) in [(3, ["edit", "cache", "--note", "the cache"]), (4, ["edit", "web", "--user", "admin"])] {
            XCTAssertEqual(try fx.run(change + ["--db", dbB]).status, 0)
            let out = try export(["--sign", "second", "--tag", "team", "-o", pubB, "--socket", socketB], db: dbB)
            XCTAssertTrue(out.stdout.contains("serial \(serial)"), out.stdout + out.stderr)
            try sh("cd \"$DIR/pubB\" && git add -A && git commit -q -m 'serial \(serial)' && git push -q origin HEAD")
            let update = try onC("bundle", "update")
            XCTAssertEqual(update.status, 0, update.stderr)
            XCTAssertFalse(update.stdout.contains("hosts updated: web") || update.stdout.contains("cache, web"), update.stdout)
            XCTAssertEqual(update.stdout.contains("kept your user of 'web' (member); the bundle's is now admin"), serial == 4, update.stdout)
            let web = try JSONSerialization.jsonObject(with: try onC("show", "web", "--json").stdoutBytes) as? [String: Any] ?? [:]
            XCTAssertEqual(web["user"] as? String, "member")
            XCTAssertEqual(web["key"] as? String, "member")
            XCTAssertEqual((web["overrides"] as? [[String: Any]])?.map { $0["field"] as? String ?? "" }, ["user", "key"])
        }
        let plainDB = try JSONSerialization.jsonObject(with: try onC("show", "db", "--json").stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertNil(plainDB["overrides"], "a host without overrides prints as before")
        XCTAssertEqual(try onC("edit", "web", "--reset", "user").status, 0)
        XCTAssertEqual(try hostsUser(dbC, "web"), "admin")

        // C moves the subscription to a mirror of the repository (--replace); without it, refused.
        try sh("git clone -q --bare \"$DIR/origin.git\" \"$DIR/mirror.git\" 2>/dev/null")
        XCTAssertEqual(try onC("bundle", "subscribe", "team", fx.dir.file("mirror.git")).status, 5)
        let moved = try onC("bundle", "subscribe", "team", fx.dir.file("mirror.git"), "--replace")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(moved.stdout.contains("Moved the subscription to bundle 'team' from"), moved.stdout)
        let mirrored = try JSONSerialization.jsonObject(with: try onC("bundle", "list", "--json").stdoutBytes) as? [[String: Any]] ?? []
        XCTAssertEqual(mirrored.first?["url"] as? String, fx.dir.file("mirror.git"))
        XCTAssertEqual(try onC("bundle", "subscribe", "team", fx.dir.file("origin.git"), "--replace").status, 0)

        // C, a member, cannot republish the bundle's hosts.
        let member = try export(["--sign", "member", "-o", fx.dir.file("c-out")], db: dbC)
        XCTAssertEqual(member.status, 5, member.stderr)
        XCTAssertTrue(member.stderr.contains("is not a trusted signer of it"), member.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("c-out")), "a refused export makes no folder")

        // A, back in the repository, would drop B's host: refused; with --allow-removals serial 5.
        try sh("cd \"$DIR/pub\" && git pull -q --ff-only")
        let stale = try export(["--sign", "signer", "--tag", "team", "-o", pub])
        XCTAssertEqual(stale.status, 5, stale.stderr)
        XCTAssertTrue(stale.stderr.contains("drops 1 host (cache)"), stale.stderr)
        XCTAssertTrue(try export(["--sign", "signer", "--tag", "team", "-o", pub, "--allow-removals"]).stdout.contains("serial 5"))

        // Into an empty folder the serial goes on (6), never back to 1; DIR's parents only with --parents.
        let fresh = fx.dir.file("fresh/team")
        let noParent = try export(["--sign", "signer", "--tag", "team", "-o", fresh])
        XCTAssertEqual(noParent.status, 4, noParent.stderr)
        XCTAssertTrue(noParent.stderr.contains("--parents"), noParent.stderr)
        // From now on A publishes web without its user (per host): C's web then has none.
        XCTAssertEqual(try fx.run(["edit", "web", "--bundle-user", "maybe"]).status, 2)
        let omit = try fx.run(["edit", "web", "--bundle-user", "omit"])
        XCTAssertEqual(omit.status, 0, omit.stderr)
        XCTAssertTrue(omit.stdout.contains("without its user"), omit.stdout)
        let shownA = try JSONSerialization.jsonObject(with: try fx.run(["show", "web", "--json"]).stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(shownA["bundle_user"] as? String, "omit")
        XCTAssertEqual(shownA["user"] as? String, "deploy")
        let made = try export(["--sign", "signer", "--tag", "team", "-o", fresh, "--parents", "--allow-removals"])
        XCTAssertTrue(made.stdout.contains("serial 6"), made.stdout + made.stderr)
        let imported = try onC("bundle", "import", fresh)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("serial 6 (was 4)"), imported.stdout)
        XCTAssertNil(try hostsUser(dbC, "web"), "published without its user")
        XCTAssertEqual(try hostsUser(fx.db, "web"), "deploy", "the publisher's web keeps its user")

        // bundle list, untrust, unsubscribe: the bundle's hosts go, C's own stays.
        let listed = try JSONSerialization.jsonObject(with: try onC("bundle", "list", "--json").stdoutBytes) as? [[String: Any]] ?? []
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed.first?["serial_applied"] as? Int, 6)
        XCTAssertEqual(listed.first?["subscribed"] as? Bool, true)
        XCTAssertEqual((listed.first?["signers"] as? [Any])?.count, 2)
        XCTAssertEqual(try onC("bundle", "untrust", "team", "--signer", signerB).status, 0)
        let gone = try onC("bundle", "unsubscribe", "team")
        XCTAssertEqual(gone.status, 0, gone.stderr)
        XCTAssertEqual(try hosts(dbC), ["own": "manual"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("c/bundles/team")), "the clone went")
        let after = try JSONSerialization.jsonObject(with: try onC("bundle", "list", "--json").stdoutBytes) as? [[String: Any]] ?? []
        XCTAssertEqual(after.first?["subscribed"] as? Bool, false)
        XCTAssertEqual((after.first?["signers"] as? [Any])?.count, 1)
    }
}
