// Team bundles in-process (`hostbook bundle export | trust | import | subscribe | update`
// through InProcessCommand's Hostbook.main), with the standing agent started from the
// built binary signing the exports, real git (a bare repository, a publisher's clone that
// pushes, the subscriber's clone hostbook makes) and `ssh-keygen -Y verify` as the oracle.
// Two databases: A (the fixture's, through $HOSTBOOK_DB; the agent serves its keys)
// publishes, B (--db) subscribes. Every refusal is checked to have written nothing: B's
// hosts, known hosts and snippets as JSON are the same before and after. Moved from
// HostbookTests/BundleTests, which keeps what needs an ordinary account (read-only folders
// root could write) and BundleTeamTests' member over a private sshd.
import Foundation
@testable import hostbook
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class BundleSigningLogicTests: XCTestCase, TestHostKeys {
    var fx: InProcessCommand!
    var dbB: String!

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service (scripts/with-keyring)")
        fx = try InProcessCommand()
        try fx.privateRuntimeFolder()
        fx.environment["GIT_AUTHOR_NAME"] = "Publisher"
        fx.environment["GIT_AUTHOR_EMAIL"] = "pub@example.com"
        fx.environment["GIT_COMMITTER_NAME"] = "Publisher"
        fx.environment["GIT_COMMITTER_EMAIL"] = "pub@example.com"
        dbB = fx.dir.file("b/hostbook.db")
    }

    override func tearDown() {
        fx?.stopAgent()
        fx = nil
    }

    // MARK: helpers

    /// hostbook on database B.
    @discardableResult
    func onB(_ args: String..., stdin: String? = nil) throws -> InProcessCommand.Outcome { try fx.run(args + ["--db", dbB], stdin: stdin) }

    func shell(_ script: String) throws -> InProcessCommand.ToolOutcome {
        try fx.tool("/bin/sh", ["-c", script], environment: ["DIR": fx.dir.path])
    }

    func sh(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try shell(script)
        XCTAssertEqual(r.status, 0, "\(script): \(r.stderr)", file: file, line: line)
    }

    /// The standing agent, from the built binary, at the default socket.
    func startAgent() throws {
        try fx.startAgent()
    }

    /// The key's public line `TYPE BASE64`.
    func publicLine(_ key: String) throws -> String {
        let shown = try fx.json("keys", "show", key) as? [String: Any] ?? [:]
        return (shown["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// B's hosts, known hosts and snippets, as JSON text.
    func snapshotB() throws -> String {
        var out = ""
        for args in [["list"], ["known-hosts", "list"], ["snippets", "list"]] {
            let r = try fx.run(args + ["--json", "--db", dbB])
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            out += r.stdout
        }
        return out
    }

    func hostsOnB() throws -> [String: [String: Any]] {
        let r = try onB("list", "--json")
        XCTAssertEqual(r.status, 0, r.stderr)
        let list = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    /// A publisher's setup on A: a signing key, hosts, a password, a host key; the agent runs.
    func publisher() throws -> String {
        try fx.ok("keys", "generate", "signer")
        try fx.ok("add", "web", "--hostname", "10.0.0.5", "--user", "deploy", "--tag", "team", "--key", "signer", "--note", "the web server")
        try fx.ok("add", "db", "--hostname", "10.0.0.6", "--tag", "team")
        try fx.ok("add", "private", "--hostname", "10.9.9.9")
        try fx.ok("edit", "web", "--password-stdin", stdin: "pw-Secret-4242\n")
        try fx.ok("known-hosts", "approve", "10.0.0.5", "--key", keyA, "--yes")
        try startAgent()
        return try publicLine("signer")
    }

    /// A bare repository and the publisher's clone of it (DIR/origin.git, DIR/pub).
    func repository() throws {
        try sh("git init -q --bare \"$DIR/origin.git\" && git clone -q \"$DIR/origin.git\" \"$DIR/pub\" 2>/dev/null")
    }

    func push(_ message: String) throws {
        try sh("cd \"$DIR/pub\" && git add -A && git commit -q -m \"\(message)\" && git push -q origin HEAD")
    }

    /// B refuses `bundle update team` with exit 5 and `expected` in its error, and nothing changed.
    func updateRefused(_ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshotB()
        let r = try onB("bundle", "update", "team")
        XCTAssertEqual(r.status, 5, "\(r.stdout) \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: "), r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(expected), "\(expected) in \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, "one line and a hint: \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stdout, "", file: file, line: line)
        XCTAssertEqual(try snapshotB(), before, "a refused bundle wrote nothing", file: file, line: line)
    }

    // MARK: tests

    func testTeamWorkflowThroughGit() throws {
        let signerLine = try publisher()
        try repository()
        let pub = fx.dir.file("pub")

        // Export on A: the pair, which ssh-keygen accepts.
        let export = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", pub])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.contains("Wrote bundle 'team' serial 1"), export.stdout)
        let allowed = fx.dir.file("allowed_signers")
        try Data("id \(signerLine)\n".utf8).write(to: URL(fileURLWithPath: allowed))
        let text = try String(contentsOfFile: pub + "/bundle.txt", encoding: .utf8)
        let verify = try fx.tool("/usr/bin/ssh-keygen", ["-Y", "verify", "-n", "hostbook-bundle", "-I", "id", "-f", allowed, "-s", pub + "/bundle.txt.sig"], stdin: text)
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stdout.contains("Good \"hostbook-bundle\" signature for id"), verify.stdout)
        XCTAssertTrue(text.contains("10.0.0.5") && text.contains("10.0.0.6"), text)
        XCTAssertFalse(text.contains("10.9.9.9"), "only hosts with the tag")

        // No secret byte in any bundle file: not the password, not the private key.
        let exported = try fx.run(["keys", "export", "signer", "--no-passphrase"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let privateLines = exported.stdout.split(separator: "\n").filter { !$0.hasPrefix("-----") && $0.count >= 20 }
        XCTAssertFalse(privateLines.isEmpty)
        for name in ["bundle.txt", "bundle.txt.sig"] {
            let content = try String(contentsOfFile: pub + "/" + name, encoding: .utf8)
            XCTAssertFalse(content.contains("pw-Secret-4242"), name)
            XCTAssertFalse(content.contains("PRIVATE KEY"), name)
            for l in privateLines { XCTAssertFalse(content.contains(l), "\(name) holds a line of the private key") }
        }
        try push("serial 1")

        // Exporting again with nothing changed rewrites nothing.
        let again = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", pub])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("unchanged"), again.stdout)
        XCTAssertEqual(try shell("cd \"$DIR/pub\" && git status --porcelain").stdout, "")

        // B: no trusted signer yet: refused before cloning, with the trust command.
        let untrusted = try onB("bundle", "subscribe", "team", fx.dir.file("origin.git"))
        XCTAssertEqual(untrusted.status, 5, untrusted.stderr)
        XCTAssertTrue(untrusted.stderr.contains("hostbook bundle trust team --signer"), untrusted.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("b/bundles/team")))

        // B has a host of its own named like one of the bundle's, and trusts another key for
        // the bundle's host key name.
        XCTAssertEqual(try onB("add", "db", "--hostname", "manual.example").status, 0)
        XCTAssertEqual(try onB("known-hosts", "approve", "10.0.0.5", "--key", keyB, "--yes").status, 0)
        let trust = try onB("bundle", "trust", "team", "--signer", signerLine + " publisher@laptop")
        XCTAssertEqual(trust.status, 0, trust.stderr)
        let subscribe = try onB("bundle", "subscribe", "team", fx.dir.file("origin.git"))
        XCTAssertEqual(subscribe.status, 0, subscribe.stderr)
        XCTAssertTrue(subscribe.stdout.contains("not changed: host 'db' was made by you"), subscribe.stdout)
        XCTAssertTrue(subscribe.stdout.contains("hostbook known-hosts list 10.0.0.5"), subscribe.stdout)
        var hosts = try hostsOnB()
        XCTAssertEqual(hosts["web"]?["source"] as? String, "bundle:team")
        XCTAssertEqual(hosts["web"]?["hostname"] as? String, "10.0.0.5")
        XCTAssertEqual(hosts["db"]?["source"] as? String, "manual")
        XCTAssertEqual(hosts["db"]?["hostname"] as? String, "manual.example")
        XCTAssertNil(hosts["private"])
        // The disagreeing host key is changed, never applied: check still says so (exit 11).
        XCTAssertEqual(try onB("known-hosts", "check", "10.0.0.5", "--key", keyA).status, 11)
        XCTAssertEqual(try onB("known-hosts", "check", "10.0.0.5", "--key", keyB).status, 0)

        // A change on A reaches B with update.
        try fx.ok("edit", "web", "--port", "2222")
        // The port moves: web's host key at port 22 is dropped, which needs a yes.
        let refused = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", pub])
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("drops 1 host-key entry that serial 1"), refused.stderr)
        let second = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", pub, "--allow-removals"])
        XCTAssertTrue(second.stdout.contains("serial 2"), second.stdout + second.stderr)
        try push("serial 2")
        let update = try onB("bundle", "update", "team")
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(try hostsOnB()["web"]?["port"] as? Int, 2222)
        // Applying the same bundle again changes nothing.
        let same = try snapshotB()
        XCTAssertEqual(try onB("bundle", "update").status, 0)
        XCTAssertEqual(try snapshotB(), same)

        // A removal on A removes what the bundle brought on B, nothing else.
        try fx.ok("edit", "web", "--untag", "team")
        let third = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", pub, "--allow-removals"])
        XCTAssertTrue(third.stdout.contains("serial 3"), third.stdout + third.stderr)
        try push("serial 3")
        XCTAssertEqual(try onB("bundle", "update", "team").status, 0)
        hosts = try hostsOnB()
        XCTAssertNil(hosts["web"], "the bundle no longer has web")
        XCTAssertEqual(hosts["db"]?["source"] as? String, "manual", "B's own host stays")

        // A replayed older bundle (serial 2 pushed over serial 3): refused.
        try sh("cd \"$DIR/pub\" && git push -q -f origin HEAD~1:refs/heads/$(git symbolic-ref --short HEAD)")
        try updateRefused("serial")
        try sh("cd \"$DIR/pub\" && git push -q -f origin HEAD")

        // One changed byte in bundle.txt: refused.
        try sh("cd \"$DIR/pub\" && sed -i 's/10.0.0.6/10.0.0.7/' bundle.txt")
        try push("tampered")
        try updateRefused("signature is not valid")
        try sh("cd \"$DIR/pub\" && git reset -q --hard HEAD~1 && git push -q -f origin HEAD")

        // Signed by a key B does not trust: refused, with the trust command for that key.
        try fx.ok("keys", "generate", "stranger")
        let strange = try fx.run(["bundle", "export", "--name", "team", "--sign", "stranger", "--tag", "team", "-o", pub])
        XCTAssertEqual(strange.status, 0, strange.stderr)
        try push("another signer")
        try updateRefused("which is not a trusted signer of it")
        try sh("cd \"$DIR/pub\" && git reset -q --hard HEAD~1 && git push -q -f origin HEAD")

        // Unsigned: refused.
        try sh("cd \"$DIR/pub\" && git rm -q bundle.txt.sig")
        try push("unsigned")
        try updateRefused("the bundle is not signed")
    }

    func testImportFromAFolderWithDryRun() throws {
        let signerLine = try publisher()
        let folder = fx.dir.file("out")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [folder]).status, 0)
        // A key revoked on A: the bundle's @revoked line is refused on B, which trusts that
        // key (only the user revokes a key they trust: TrustAuthority).
        try fx.ok("known-hosts", "revoke", "10.0.0.6", "--key", keyB)
        let export = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "-o", folder, "--json"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let exported = try JSONSerialization.jsonObject(with: export.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(exported["serial"] as? Int, 1)
        XCTAssertEqual(exported["change"] as? String, "written")
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signerLine).status, 0)
        XCTAssertEqual(try onB("known-hosts", "approve", "10.0.0.6", "--key", keyB, "--yes").status, 0)

        let before = try snapshotB()
        let dry = try onB("bundle", "import", folder, "--dry-run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("dry run, nothing written"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("web"), dry.stdout)
        XCTAssertEqual(try snapshotB(), before)

        let applied = try onB("bundle", "import", folder, "--json")
        XCTAssertEqual(applied.status, 0, applied.stderr)
        let plan = try JSONSerialization.jsonObject(with: applied.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(plan["bundle"] as? String, "team")
        XCTAssertEqual(plan["applied"] as? Bool, true)
        XCTAssertEqual(Set(plan["hosts_added"] as? [String] ?? []), ["web", "db", "private"])
        XCTAssertEqual(try hostsOnB()["web"]?["source"] as? String, "bundle:team")
        XCTAssertEqual(try onB("known-hosts", "check", "10.0.0.6", "--key", keyB).status, 0, "not revoked by the bundle")
        let refused = (plan["refused_host_keys"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        XCTAssertEqual(refused, ["you trust a key for 10.0.0.6"])
        // The password stayed on A: B's web has none.
        XCTAssertNotEqual(try hostsOnB()["web"]?["auth"] as? String, "password")

        // A changed byte in the signature file: refused, nothing written.
        var sig = try Data(contentsOf: URL(fileURLWithPath: folder + "/bundle.txt.sig"))
        let at = sig.count / 2
        sig[at] = sig[at] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try fx.tool("/bin/sh", ["-c", "cat > \"$0\"", folder + "/bundle.txt.sig"], stdin: String(decoding: sig, as: UTF8.self))
        let snapshot = try snapshotB()
        let badSignature = try onB("bundle", "import", folder)
        XCTAssertEqual(badSignature.status, 5, badSignature.stderr)
        XCTAssertTrue(badSignature.stderr.contains("signature is not valid"), badSignature.stderr)
        XCTAssertEqual(try snapshotB(), snapshot)
    }

    func testSigningKeyNamespacesAndAStoppedAgent() throws {
        try fx.ok("keys", "generate", "signer")
        try fx.ok("add", "web", "--hostname", "10.0.0.5")
        let folder = fx.dir.file("out")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [folder]).status, 0)
        let args = ["bundle", "export", "--name", "team", "--sign", "signer", "-o", folder]

        // No agent: one line, and the command that starts it (exit 1).
        let stopped = try fx.run(args)
        XCTAssertEqual(stopped.status, 1, stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("hostbook's agent is not running"), stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("eval \"$(hostbook agent start)\""), stopped.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/bundle.txt"))

        try startAgent()
        // A key restricted to git: refused with the command that allows it (exit 5).
        try fx.ok("keys", "edit", "signer", "--namespace", "git")
        let git = try fx.run(args)
        XCTAssertEqual(git.status, 5, git.stderr)
        XCTAssertTrue(git.stderr.contains("may sign only in namespace git, not hostbook-bundle"), git.stderr)
        XCTAssertTrue(git.stderr.contains("hostbook keys edit signer --namespace git --namespace hostbook-bundle"), git.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/bundle.txt"))
        // Restricted to hostbook-bundle: the agent signs it (AgentAccessPolicy rule 6).
        try fx.ok("keys", "edit", "signer", "--namespace", "hostbook-bundle")
        let signed = try fx.run(args)
        XCTAssertEqual(signed.status, 0, signed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/bundle.txt.sig"))
        // A locked agent (ssh-add -x): said so, with the command that unlocks it (exit 1).
        let socket = try XCTUnwrap(try fx.run(["agent", "status", "--json"]).stdout.split(separator: "\"").first { $0.hasSuffix("agent.sock") })
        let askpass = fx.dir.file("askpass.sh")
        try Data("#!/bin/sh\necho lockpass\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)
        let lock = try fx.tool("/bin/sh", ["-c", "ssh-add -x"], environment: ["SSH_AUTH_SOCK": String(socket), "SSH_ASKPASS": askpass,
                                                                          "SSH_ASKPASS_REQUIRE": "force"])
        XCTAssertEqual(lock.status, 0, lock.stderr)
        try fx.ok("edit", "web", "--port", "2200")
        let locked = try fx.run(args)
        XCTAssertEqual(locked.status, 1, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("is locked (it offers no keys)"), locked.stderr)
        XCTAssertTrue(locked.stderr.contains("ssh-add -X"), locked.stderr)
        XCTAssertFalse(try String(contentsOfFile: folder + "/bundle.txt", encoding: .utf8).contains("2200"), "nothing written")

        // An unknown key: exit 4.
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "nope", "-o", folder]).status, 4)
    }

    func testUpdateOfEverySubscriptionGoesOnPastARefusedOne() throws {
        let signerLine = try publisher()
        // Two bundles from A, each in its own repository: team (tag team) and all.
        for (name, tag) in [("team", ["--tag", "team"]), ("all", [])] {
            try sh("git init -q --bare \"$DIR/\(name).git\" && git clone -q \"$DIR/\(name).git\" \"$DIR/\(name)\" 2>/dev/null")
            XCTAssertEqual(try fx.run(["bundle", "export", "--name", name, "--sign", "signer", "-o", fx.dir.file(name)] + tag).status, 0)
            try sh("cd \"$DIR/\(name)\" && git add -A && git commit -q -m 1 && git push -q origin HEAD")
            XCTAssertEqual(try onB("bundle", "trust", name, "--signer", signerLine).status, 0)
            let r = try onB("bundle", "subscribe", name, fx.dir.file(name + ".git"))
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try hostsOnB()["private"]?["source"] as? String, "bundle:all")
        // team is tampered with; all has a change.
        try sh("cd \"$DIR/team\" && sed -i 's/10.0.0.6/10.0.0.8/' bundle.txt && git commit -q -am tampered && git push -q origin HEAD")
        try fx.ok("edit", "private", "--hostname", "10.9.9.10")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "all", "--sign", "signer", "-o", fx.dir.file("all")]).status, 0)
        try sh("cd \"$DIR/all\" && git commit -q -am 2 && git push -q origin HEAD")
        let r = try onB("bundle", "update")
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("signature is not valid"), r.stderr)
        XCTAssertTrue(r.stdout.contains("Updated bundle 'all'"), r.stdout)
        let hosts = try hostsOnB()
        XCTAssertEqual(hosts["private"]?["hostname"] as? String, "10.9.9.10", "the good bundle was applied")
        XCTAssertEqual(hosts["db"]?["hostname"] as? String, "10.0.0.6", "the tampered one was not")
        // --json prints nothing when a bundle was refused.
        let json = try onB("bundle", "update", "--json")
        XCTAssertEqual(json.status, 5)
        XCTAssertEqual(json.stdout, "")
    }

    /// A bundle host B gave a password: the update that drops the host deletes the password
    /// from the vault too (CredentialStore.applyBundle), so doctor finds no orphan item.
    func testADroppedBundleHostTakesItsPasswordOutOfTheVault() throws {
        let signerLine = try publisher()
        try repository()
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try push("serial 1")
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signerLine).status, 0)
        let subscribe = try onB("bundle", "subscribe", "team", fx.dir.file("origin.git"))
        XCTAssertEqual(subscribe.status, 0, subscribe.stderr)
        let edit = try onB("edit", "db", "--password-stdin", stdin: "pw-B-db-777\n")
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertEqual(try hostsOnB()["db"]?["auth"] as? String, "password")
        XCTAssertFalse(try onB("doctor").stdout.contains("no longer exists"))

        try fx.ok("edit", "db", "--untag", "team")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub"), "--allow-removals"]).status, 0)
        try push("serial 2")
        let update = try onB("bundle", "update", "team")
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stdout.contains("hosts removed: db"), update.stdout)
        XCTAssertNil(try hostsOnB()["db"])
        let doctor = try onB("doctor")
        XCTAssertFalse(doctor.stdout.contains("the vault holds a password whose host no longer exists"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("Vault: ") && doctor.stdout.contains("each owned by a host or key"), "the vault was checked: \(doctor.stdout)")
    }

    /// A bundle host B gave a password: the update that moves the host to another hostname
    /// takes the password out (auth and vault), so `hostbook ssh` never answers it to an
    /// address the bundle chose; the output says how to set it again.
    func testABundleThatMovesAHostTakesItsPasswordAway() throws {
        let signerLine = try publisher()
        try repository()
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try push("serial 1")
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signerLine).status, 0)
        let subscribe = try onB("bundle", "subscribe", "team", fx.dir.file("origin.git"))
        XCTAssertEqual(subscribe.status, 0, subscribe.stderr)
        let edit = try onB("edit", "db", "--password-stdin", stdin: "pw-B-db-777\n")
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertEqual(try hostsOnB()["db"]?["auth"] as? String, "password")

        try fx.ok("edit", "db", "--hostname", "203.0.113.66")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try push("serial 2")
        let update = try onB("bundle", "update", "team")
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stdout.contains("password of 'db' removed: the bundle changed its address; set it again with hostbook edit db --password-stdin"), update.stdout)
        let db = try hostsOnB()["db"]
        XCTAssertEqual(db?["hostname"] as? String, "203.0.113.66")
        XCTAssertNotEqual(db?["auth"] as? String, "password")
        let doctor = try onB("doctor")
        XCTAssertFalse(doctor.stdout.contains("which does not use one"), "the vault item went: \(doctor.stdout)")
        XCTAssertTrue(doctor.stdout.contains("each owned by a host or key"), "the vault was checked: \(doctor.stdout)")
    }

    /// A bundle whose plan changes nothing (its one host clashes with B's own) still has its
    /// serial recorded: the older signed bundle is refused after it (exit 5).
    func testASerialThatChangesNothingIsStillRecorded() throws {
        let signerLine = try publisher()
        try fx.ok("edit", "db", "--tag", "ops")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [fx.dir.file("v")]).status, 0)
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "ops", "--sign", "signer", "--tag", "ops", "-o", fx.dir.file("v")]).status, 0)
        try sh("cp -r \"$DIR/v\" \"$DIR/old\"")
        try fx.ok("edit", "db", "--note", "changed")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "ops", "--sign", "signer", "--tag", "ops", "-o", fx.dir.file("v")]).status, 0)
        XCTAssertEqual(try onB("bundle", "trust", "ops", "--signer", signerLine).status, 0)
        XCTAssertEqual(try onB("add", "db", "--hostname", "10.1.1.1").status, 0)
        let first = try onB("bundle", "import", fx.dir.file("v"))
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("serial 2") && first.stdout.contains("unchanged: nothing to apply"), first.stdout)
        let before = try snapshotB()
        let replay = try onB("bundle", "import", fx.dir.file("old"))
        XCTAssertEqual(replay.status, 5, "\(replay.stdout) \(replay.stderr)")
        XCTAssertTrue(replay.stderr.contains("lower than serial 2"), replay.stderr)
        XCTAssertEqual(try snapshotB(), before)
    }

    /// The subscriber's clone gets no working tree: no file of the publisher's tree is
    /// written and no filter runs (not even git-lfs's, which the user's own configuration
    /// names and the repository's .gitattributes asks for); the commit applied is the ref
    /// refs/hostbook/applied.
    func testASubscriptionChecksOutNoFileAndRunsNoFilter() throws {
        let signerLine = try publisher()
        try repository()
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try sh("cd \"$DIR/pub\" && printf '* filter=lfs\\n' > .gitattributes")
        try push("serial 1")
        try sh("""
            printf '[filter "lfs"]\\n\\tsmudge = touch %s/filter-ran; cat\\n\\tclean = cat\\n\\trequired = true\\n' "$DIR" > "$DIR/gitconfig"
            """)
        let userGit = ["GIT_CONFIG_GLOBAL": fx.dir.file("gitconfig")]
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signerLine).status, 0)
        var r = try fx.call(["--db", dbB, "bundle", "subscribe", "team", fx.dir.file("origin.git")], environment: userGit)
        XCTAssertEqual(r.status, 0, r.stderr)
        try fx.ok("edit", "db", "--note", "second")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try push("serial 2")
        r = try fx.call(["--db", dbB, "bundle", "update", "team"], environment: userGit)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try hostsOnB()["db"]?["note"] as? String, "second")
        let clone = fx.dir.file("b/bundles/team")
        XCTAssertFalse(FileManager.default.fileExists(atPath: clone + "/bundle.txt"), "no file of the tree is checked out")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("filter-ran")), "no filter ran")
        let applied = try fx.tool("/usr/bin/git", ["-C", clone, "rev-parse", "refs/hostbook/applied"])
        let head = try fx.tool("/usr/bin/git", ["-C", fx.dir.file("pub"), "rev-parse", "HEAD"])
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertEqual(applied.stdout, head.stdout)
        // The filter does run for git itself with that configuration (so the check above means something).
        let probe = try fx.tool("/usr/bin/git", ["-C", fx.dir.file("pub"), "checkout", "-q", "HEAD~1", "--", "bundle.txt"], environment: userGit)
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fx.dir.file("filter-ran")))
    }

    /// Export takes the serial of DIR/bundle.txt only from a bundle signed by a key of this
    /// database (or a trusted signer of it): one anyone who can push committed, unsigned,
    /// with a serial near the largest, is refused (exit 5) and nothing is written; a signed
    /// one whose serial cannot be raised twice more is refused too.
    func testExportTakesNoSerialFromAnUnsignedOrExhaustedBundle() throws {
        try fx.ok("keys", "generate", "signer")
        try fx.ok("add", "web", "--hostname", "10.0.0.5")
        try startAgent()
        let folder = fx.dir.file("out")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [folder]).status, 0)
        let args = ["bundle", "export", "--name", "team", "--sign", "signer", "-o", folder]
        XCTAssertEqual(try fx.run(args).status, 0)
        try fx.ok("edit", "web", "--port", "2200")
        try sh("cd \"$DIR/out\" && sed -i 's/^serial 1$/serial 18446744073709551614/' bundle.txt && grep -q '^serial 18446744073709551614$' bundle.txt")
        let planted = try String(contentsOfFile: folder + "/bundle.txt", encoding: .utf8)
        let refused = try fx.run(args)
        XCTAssertEqual(refused.status, 5, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is not signed by a trusted key"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: folder + "/bundle.txt", encoding: .utf8), planted, "nothing written")

        // Signed by a key of this database, but at UInt64.max - 1: refused as well.
        let keyFile = fx.dir.file("own-key")
        XCTAssertEqual(try fx.tool("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "own", "-f", keyFile]).status, 0)
        try fx.ok("keys", "import", keyFile, "--name", "own")
        try sh("rm \"$DIR/out/bundle.txt.sig\"")
        let signed = try fx.tool("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", keyFile, "-n", "hostbook-bundle", folder + "/bundle.txt"])
        XCTAssertEqual(signed.status, 0, signed.stderr)
        let exhausted = try fx.run(args)
        XCTAssertEqual(exhausted.status, 5, exhausted.stdout + exhausted.stderr)
        XCTAssertTrue(exhausted.stderr.contains("is too large to be raised"), exhausted.stderr)
        XCTAssertEqual(try String(contentsOfFile: folder + "/bundle.txt", encoding: .utf8), planted, "nothing written")

        // The publisher's own signed bundle: its serial is raised.
        try sh("cd \"$DIR/out\" && sed -i 's/^serial 18446744073709551614$/serial 7/' bundle.txt && rm bundle.txt.sig")
        XCTAssertEqual(try fx.tool("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", keyFile, "-n", "hostbook-bundle", folder + "/bundle.txt"]).status, 0)
        let raised = try fx.run(args)
        XCTAssertEqual(raised.status, 0, raised.stderr)
        XCTAssertTrue(raised.stdout.contains("serial 8"), raised.stdout)
    }

    /// After `bundle update` the installed ssh configuration shows the bundle's hosts, also
    /// when another subscription was refused (exit 5) and only some were applied.
    func testUpdatesReachTheInstalledSSHConfigurationEvenAfterARefusal() throws {
        // B's commands have a home of their own, where its configuration is installed (A's
        // commands, in the fixture's home, must not be the ones that rewrite it).
        let home = fx.dir.file("homeB")
        let homeB = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"]
        func inHomeB(_ args: String...) throws -> InProcessCommand.Outcome { try fx.call(args + ["--db", dbB], environment: homeB) }
        try sh("mkdir -p \"$DIR/homeB/.ssh\" && chmod 700 \"$DIR/homeB/.ssh\"")
        let signerLine = try publisher()
        for name in ["all", "team"] {
            try sh("git init -q --bare \"$DIR/\(name).git\" && git clone -q \"$DIR/\(name).git\" \"$DIR/\(name)\" 2>/dev/null")
            XCTAssertEqual(try fx.run(["bundle", "export", "--name", name, "--sign", "signer", "-o", fx.dir.file(name), "--tag", "team"]).status, 0)
            try sh("cd \"$DIR/\(name)\" && git add -A && git commit -q -m 1 && git push -q origin HEAD")
            XCTAssertEqual(try onB("bundle", "trust", name, "--signer", signerLine).status, 0)
            let r = try inHomeB("bundle", "subscribe", name, fx.dir.file(name + ".git"))
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let install = try inHomeB("ssh-config", "--install")
        XCTAssertEqual(install.status, 0, install.stderr)
        let userConfig = home + "/.ssh/config"
        func resolved(_ host: String) throws -> String {
            let r = try fx.tool("/usr/bin/ssh", ["-F", userConfig, "-G", host])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }

        // team gains a host: after the update ssh resolves it.
        try fx.ok("add", "newhost", "--hostname", "10.1.1.1", "--port", "2022", "--tag", "team")
        XCTAssertFalse(try resolved("newhost").contains("\nhostname 10.1.1.1\n"), "not before the update")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("team")]).status, 0)
        try sh("cd \"$DIR/team\" && git commit -q -am 2 && git push -q origin HEAD")
        let update = try inHomeB("bundle", "update", "team")
        XCTAssertEqual(update.status, 0, update.stderr)
        var out = try resolved("newhost")
        XCTAssertTrue(out.contains("\nhostname 10.1.1.1\n") && out.contains("\nport 2022\n"), out)

        // all is tampered with, team gains another host: exit 5, and team's host reaches ssh.
        try sh("cd \"$DIR/all\" && sed -i 's/10.0.0.6/10.0.0.8/' bundle.txt && git commit -q -am tampered && git push -q origin HEAD")
        try fx.ok("add", "later", "--hostname", "10.1.1.2", "--port", "2023", "--tag", "team")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("team")]).status, 0)
        try sh("cd \"$DIR/team\" && git commit -q -am 3 && git push -q origin HEAD")
        XCTAssertFalse(try resolved("later").contains("\nhostname 10.1.1.2\n"), "not before the update")
        let partial = try inHomeB("bundle", "update")
        XCTAssertEqual(partial.status, 5, partial.stderr)
        XCTAssertTrue(partial.stderr.contains("signature is not valid"), partial.stderr)
        XCTAssertEqual(try hostsOnB()["later"]?["port"] as? Int, 2023)
        out = try resolved("later")
        XCTAssertTrue(out.contains("\nhostname 10.1.1.2\n") && out.contains("\nport 2023\n"), out)
    }

    func testADryRunImportCreatesNoDatabase() throws {
        _ = try publisher()
        let folder = fx.dir.file("out")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [folder]).status, 0)
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "-o", folder]).status, 0)
        let missing = fx.dir.file("none/hostbook.db")
        let r = try fx.run(["bundle", "import", folder, "--dry-run", "--db", missing])
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("no signer is trusted for bundle 'team'"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("none")))
    }

    /// `bundle update` with no database yet: nothing is subscribed to, and no database is
    /// created to say so (a NAME is not found, exit 4).
    func testAnUpdateWithoutADatabaseCreatesNone() throws {
        let missing = fx.dir.file("none/hostbook.db")
        let all = try fx.run(["bundle", "update", "--db", missing])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("No bundle is subscribed to"), all.stdout)
        let named = try fx.run(["bundle", "update", "team", "--db", missing])
        XCTAssertEqual(named.status, 4, named.stderr)
        XCTAssertTrue(named.stderr.contains("no subscription to a bundle named 'team'"), named.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("none")))
    }

    /// `bundle export --socket PATH` signs through the agent at PATH, as `agent start --socket`.
    func testExportThroughAnAgentOnAnotherSocket() throws {
        try fx.ok("keys", "generate", "signer")
        try fx.ok("add", "web", "--hostname", "10.0.0.5")
        let folder = fx.dir.file("out")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [folder]).status, 0)
        let socket = fx.dir.file("other.sock")
        try fx.startAgent(["--socket", socket])
        defer { fx.stopAgent(["--socket", socket]) }
        let args = ["bundle", "export", "--name", "team", "--sign", "signer", "-o", folder]
        let elsewhere = try fx.run(args)
        XCTAssertEqual(elsewhere.status, 1, "nothing at the default socket: \(elsewhere.stderr)")
        let signed = try fx.run(args + ["--socket", socket])
        XCTAssertEqual(signed.status, 0, signed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/bundle.txt.sig"))
    }

    /// A hostile repository: bundle.txt as a symbolic link, a submodule or a huge file is
    /// refused (exit 5) before anything is applied, and no git hook runs in hostbook's clone
    /// (not even one the user's own git configuration names).
    func testAHostileRepositoryIsRefusedAndRunsNothing() throws {
        let signerLine = try publisher()
        try repository()
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try sh("cd \"$DIR/pub\" && mv bundle.txt real.txt && ln -s real.txt bundle.txt")
        try push("a symbolic link")
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signerLine).status, 0)
        // The user's git configuration names hooks that would record that they ran.
        try sh("""
            mkdir -p "$DIR/hooks" && for h in post-checkout reference-transaction post-merge; do
              printf '#!/bin/sh\\ntouch "%s/hook-ran"\\n' "$DIR" > "$DIR/hooks/$h"; chmod 755 "$DIR/hooks/$h"; done
            printf '[core]\\n\\thooksPath = %s/hooks\\n' "$DIR" > "$DIR/gitconfig"
            """)
        let userGit = ["GIT_CONFIG_GLOBAL": fx.dir.file("gitconfig")]
        func subscribe() throws -> InProcessCommand.Outcome {
            try fx.call(["--db", dbB, "bundle", "subscribe", "team", fx.dir.file("origin.git")], environment: userGit)
        }
        let before = try snapshotB()
        var r = try subscribe()
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("bundle.txt in ") && r.stderr.contains("is a symbolic link, not a file"), r.stderr)

        // (committed from the index: `git add -A` would drop the gitlink, which has no folder)
        try sh("cd \"$DIR/pub\" && git rm -q bundle.txt && git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),bundle.txt && git commit -q -m submodule && git push -q origin HEAD")
        r = try subscribe()
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("is a submodule, not a file"), r.stderr)

        try sh("cd \"$DIR/pub\" && git rm -q --cached bundle.txt && head -c 17000000 /dev/zero | tr '\\0' a > bundle.txt")
        try push("huge")
        r = try subscribe()
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("is larger than"), r.stderr)
        XCTAssertEqual(try snapshotB(), before, "nothing was applied")

        // The real one: applied, and still no hook ran.
        try sh("cd \"$DIR/pub\" && mv real.txt bundle.txt")
        try push("the bundle")
        r = try subscribe()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try hostsOnB()["web"]?["source"] as? String, "bundle:team")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("hook-ran")), "no git hook ran")
        // The hooks do run for git itself with that configuration (so the check above means something).
        XCTAssertEqual(try fx.tool("/usr/bin/git", ["-C", fx.dir.file("pub"), "checkout", "-q", "-b", "probe"], environment: userGit).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fx.dir.file("hook-ran")))
    }
}
