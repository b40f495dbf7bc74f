// Team bundles over a private sshd, end to end: a member on a second ordinary account
// follows the bundle through hostbook's own ssh. Two maintainers and a member over a
// repository reached by path run in-process: HostbookLogicTests/BundleTeamLogicTests.
import Foundation
import TestSupport
import XCTest

extension BundleTests {
    /// A member on an ordinary account of their own (not the publisher's) follows the bundle
    /// from its bare repository behind a private sshd, reached as one of the member's saved
    /// hosts whose host key the member trusts, logging in as the member with the member's
    /// key (in the member's hostbook agent): subscribe and two updates run
    /// git over ssh through hostbook and ask for nothing; the member's `--user` and key on a
    /// bundle host survive both updates; unsubscribe removes the bundle's hosts and only them.
    func testSubscribeAndUpdateOverSSHThroughHostbook() throws {
        let signerLine = try publisher()
        try repository()
        func export() throws {
            let r = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        try export()
        try push("serial 1")

        // The member: a second ordinary account with its own database, keyring and agent.
        let member = try HostbookFixture()
        XCTAssertTrue(member.account == nil || member.userName != fx.userName, "the member is a second account")
        @discardableResult
        func onM(_ args: String...) throws -> HostbookResult { try member.run(args) }
        func memberHosts() throws -> [String: [String: Any]] {
            let list = try JSONSerialization.jsonObject(with: try onM("list", "--json").stdoutBytes) as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
        }
        XCTAssertEqual(try onM("keys", "generate", "member").status, 0)
        let shown = try JSONSerialization.jsonObject(with: try onM("keys", "show", "member", "--json").stdoutBytes) as? [String: Any] ?? [:]
        let memberLine = (shown["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        XCTAssertEqual(try onM("agent", "start").status, 0)
        defer { _ = try? onM("agent", "stop") }

        let sshd = try PrivateSSHD(authorizedKeys: [memberLine])
        defer { sshd.stop() }
        XCTAssertEqual(try onM("add", "gitbox", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", member.userName).status, 0)
        let approve = try onM("known-hosts", "approve", "127.0.0.1", "--port", String(sshd.port), "--key", try sshd.publicKeyTypeAndBlob(), "--yes")
        XCTAssertEqual(approve.status, 0, approve.stderr)
        XCTAssertEqual(try onM("bundle", "trust", "team", "--signer", signerLine).status, 0)
        XCTAssertEqual(try onM("add", "own", "--hostname", "10.7.7.7").status, 0)

        let subscribe = try onM("--no-input", "bundle", "subscribe", "team", "gitbox:" + fx.dir.file("origin.git"))
        XCTAssertEqual(subscribe.status, 0, subscribe.stderr)
        XCTAssertEqual(try memberHosts()["web"]?["source"] as? String, "bundle:team")
        XCTAssertEqual(try onM("edit", "web", "--user", "member", "--key", "member").status, 0)

        // Two updates: the first changes db only, the second web's user; the member's user
        // and key on web stay, and the second says the bundle's user changed.
        for (serial, change) in [(2, ["edit", "db", "--note", "over ssh"]), (3, ["edit", "web", "--user", "admin"])] {
            XCTAssertEqual(try fx.run(change).status, 0)
            try export()
            try push("serial \(serial)")
            let update = try onM("--no-input", "bundle", "update")
            XCTAssertEqual(update.status, 0, update.stderr)
            XCTAssertEqual(update.stdout.contains("hosts updated: db"), serial == 2, update.stdout)
            XCTAssertEqual(update.stdout.contains("kept your user of 'web' (member); the bundle's is now admin"), serial == 3, update.stdout)
            let web = try JSONSerialization.jsonObject(with: try onM("show", "web", "--json").stdoutBytes) as? [String: Any] ?? [:]
            XCTAssertEqual(web["user"] as? String, "member")
            XCTAssertEqual(web["key"] as? String, "member")
        }
        XCTAssertEqual(try memberHosts()["db"]?["note"] as? String, "over ssh")
        XCTAssertTrue(sshd.waitForLog("Accepted publickey for \(member.userName)", count: 3), sshd.log)

        // Unsubscribe: the bundle's hosts go; the member's own hosts stay.
        let gone = try onM("bundle", "unsubscribe", "team")
        XCTAssertEqual(gone.status, 0, gone.stderr)
        XCTAssertEqual(Set(try memberHosts().keys), ["gitbox", "own"])
    }
}
