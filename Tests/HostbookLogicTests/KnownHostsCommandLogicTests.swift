// `hostbook known-hosts ...` in-process (InProcessCommand runs Hostbook.main): the
// trust-on-first-use lifecycle with exact output, error text and exit codes
// (docs/command-line.md, "Exit codes"), usage errors, import and export with ssh-keygen
// reading the files back, reading commands that create no database, check --json, the
// rotation switch per name and port. Moved from HostbookTests/KnownHostsCommandTests, which
// keeps the scans of a private sshd.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KnownHostsCommandLogicTests: XCTestCase, TestHostKeys {
    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var env: [String: String] = [:]


    override func setUpWithError() throws {
        cli = try InProcessCommand()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func hb(_ args: [String], stdin: String = "") throws -> InProcessCommand.Outcome {
        try cli.call(args, stdin: stdin, environment: env)
    }

    func assertResult(_ r: InProcessCommand.Outcome, _ status: Int32, stdout: String? = nil, stderr: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, "stderr: \(r.stderr)", file: file, line: line)
        if let stdout { XCTAssertEqual(r.stdout, stdout, file: file, line: line) }
        if let stderr { XCTAssertEqual(r.stderr, stderr, file: file, line: line) }
    }

    func testReadingCommandsCreateNoDatabase() throws {
        assertResult(try hb(["known-hosts", "check", "h.test", "--key", keyA]), 10, stdout: "unknown: no key is known for 'h.test'\n", stderr: "")
        assertResult(try hb(["known-hosts", "list", "--json"]), 0, stdout: "[]\n", stderr: "")
        assertResult(try hb(["known-hosts", "export"]), 0, stdout: "", stderr: "")
        assertResult(try hb(["known-hosts", "list", "h.test"]), 4, stdout: "", stderr: "hostbook: no known-hosts entries for 'h.test'\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("hostbook.db")))
    }

    func testCheckJSON() throws {
        try hb(["known-hosts", "approve", "h.test", "--port", "2222", "--key", keyA, "--yes"])
        let r = try hb(["known-hosts", "check", "h.test", "--port", "2222", "--key", keyA, "--json"])
        assertResult(r, 0)
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        XCTAssertEqual(o["status"] as? String, "trusted")
        XCTAssertEqual(o["host"] as? String, "h.test")
        XCTAssertEqual(o["port"] as? Int, 2222)
        XCTAssertEqual(o["fingerprint"] as? String, fpA)
        let entries = try XCTUnwrap(o["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[0]["port"] as? Int, 2222)
        XCTAssertEqual(entries[0]["source"] as? String, "manual")
        let unknown = try hb(["known-hosts", "check", "h.test", "--key", keyA, "--json"])
        assertResult(unknown, 10)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: unknown.stdoutBytes) as? [String: Any])?["status"] as? String, "unknown")
    }

    func testRotationSwitchIsPerNameAndPort() throws {
        assertResult(try hb(["known-hosts", "rotation", "h.test"]), 0, stdout: "Host-key rotation is on for 'h.test'.\n", stderr: "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("hostbook.db")), "asking creates nothing")
        assertResult(try hb(["known-hosts", "rotation", "h.test", "--on", "--off"]), 2, stdout: "",
                     stderr: "hostbook: --on and --off cannot be given together\n")
        assertResult(try hb(["known-hosts", "rotation", "*.test", "--off"]), 2, stdout: "")
        // Off needs a name hostbook knows; h.test's entry is consulted for any port.
        assertResult(try hb(["known-hosts", "approve", "h.test", "--key", keyA, "--yes"]), 0)
        assertResult(try hb(["known-hosts", "rotation", "[h.test]:2222", "--off"]), 0,
                     stdout: "Host-key rotation is now off for 'h.test' (port 2222).\n")
        assertResult(try hb(["known-hosts", "rotation", "H.TEST", "--port", "2222", "--off"]), 0,
                     stdout: "Host-key rotation was already off for 'h.test' (port 2222).\n")
        assertResult(try hb(["known-hosts", "rotation", "h.test", "--port", "2222"]), 0, stdout: "Host-key rotation is off for 'h.test' (port 2222).\n")
        assertResult(try hb(["known-hosts", "rotation", "h.test"]), 0, stdout: "Host-key rotation is on for 'h.test'.\n")
        assertResult(try hb(["known-hosts", "rotation", "[h.test]:2222", "--on"]), 0,
                     stdout: "Host-key rotation is now on for 'h.test' (port 2222).\n")
    }

    func testRotationOffRefusesANameThatIsNeitherSavedNorKnown() throws {
        let refusal = "hostbook: 'typo.test' is neither a saved host nor in the known hosts\n"
            + "Give a saved host's name ('hostbook list') or a host in 'hostbook known-hosts list'; nothing was changed.\n"
        assertResult(try hb(["known-hosts", "rotation", "typo.test", "--off"]), 4, stdout: "", stderr: refusal)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("hostbook.db")), "a refusal creates nothing")
        assertResult(try hb(["known-hosts", "approve", "h.test", "--key", keyA, "--yes"]), 0)
        assertResult(try hb(["known-hosts", "rotation", "typo.test", "--off", "--json"]), 4, stdout: "", stderr: refusal)
        assertResult(try hb(["known-hosts", "rotation", "typo.test"]), 0, stdout: "Host-key rotation is on for 'typo.test'.\n")
        // --on is never refused: it only undoes an --off.
        assertResult(try hb(["known-hosts", "rotation", "typo.test", "--on"]), 0,
                     stdout: "Host-key rotation was already on for 'typo.test'.\n")
        // A saved host's name is enough, with no key known for it yet.
        assertResult(try hb(["add", "web", "--hostname", "web.test", "--port", "2200"]), 0)
        assertResult(try hb(["known-hosts", "rotation", "web", "--off"]), 0,
                     stdout: "Host-key rotation is now off for 'web.test' (port 2200).\n")
        // A known name at another port than its entry's ([HOST]:PORT falls back to HOST).
        assertResult(try hb(["known-hosts", "rotation", "h.test", "--port", "2022", "--off"]), 0,
                     stdout: "Host-key rotation is now off for 'h.test' (port 2022).\n")
        // A revocation or a CA whose pattern covers the name knows no key of that host.
        let file = tmp.file("markers")
        try "@revoked * \(keyB)\n@cert-authority *.example.com \(keyC)\n".write(toFile: file, atomically: true, encoding: .utf8)
        assertResult(try hb(["known-hosts", "import", file]), 0)
        let covered = "hostbook: 'nosuch.example.com' is neither a saved host nor in the known hosts\n"
            + "Give a saved host's name ('hostbook list') or a host in 'hostbook known-hosts list'; nothing was changed.\n"
        assertResult(try hb(["known-hosts", "rotation", "nosuch.example.com", "--off"]), 4, stdout: "", stderr: covered)
    }

    func testTrustOnFirstUseLifecycle() throws {
        assertResult(try hb(["known-hosts", "check", "Host.Test", "--key", keyA]), 10,
                     stdout: "unknown: no key is known for 'host.test'\n", stderr: "")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyA]), 3, stdout: "",
                     stderr: "hostbook: approving the new ED25519 key \(fpA) for 'host.test' needs confirmation but there is no terminal\n"
                        + "Use --yes, or --fingerprint SHA256:... to approve only that key.\n")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyA, "--no-input"]), 3)
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyA, "--fingerprint", fpB]), 5, stdout: "",
                     stderr: "hostbook: the fingerprint \(fpB) does not match the key (\(fpA))\n"
                        + "Check the fingerprint with the host's administrator; nothing was changed.\n")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyA, "--yes"]), 0,
                     stdout: "Approved: the ED25519 key \(fpA) is now trusted for 'host.test'.\n", stderr: "")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyA, "--yes"]), 0,
                     stdout: "The ED25519 key \(fpA) is already trusted for 'host.test'.\n")
        assertResult(try hb(["known-hosts", "check", "HOST.test", "--key", keyA]), 0,
                     stdout: "trusted: the ED25519 key \(fpA) is trusted for 'host.test'\n", stderr: "")
        // Another port falls back to the bare name, as ssh does.
        assertResult(try hb(["known-hosts", "check", "host.test", "--port", "2222", "--key", keyA]), 0,
                     stdout: "trusted: the ED25519 key \(fpA) is trusted for 'host.test' (port 2222) (through the entry for 'host.test' on port 22, as ssh does)\n")
        // A changed key: never accepted by --yes, refused with a bad fingerprint, replaced with --replace --fingerprint.
        assertResult(try hb(["known-hosts", "check", "host.test", "--key", keyB]), 11,
                     stdout: "changed: 'host.test' is known with another key (ssh-ed25519 \(fpA)), not the ED25519 key \(fpB)\n")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyB, "--yes"]), 11, stdout: "",
                     stderr: "hostbook: the host key for 'host.test' has changed (stored: ssh-ed25519 \(fpA)); it was not replaced\n"
                        + "If the new key is genuine, replace it with --replace --fingerprint \(fpB).\n")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyB, "--replace"]), 11)
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyB, "--replace", "--fingerprint", fpA]), 5)
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyB, "--replace", "--fingerprint", fpB]), 0,
                     stdout: "Replaced: the ED25519 key \(fpB) is now trusted for 'host.test'.\n", stderr: "")
        assertResult(try hb(["known-hosts", "check", "host.test", "--key", keyA]), 11)
        assertResult(try hb(["known-hosts", "check", "host.test", "--key", keyB]), 0)
        // Revoked overrides everything.
        assertResult(try hb(["known-hosts", "revoke", "host.test", "--key", keyB]), 0,
                     stdout: "Revoked: the ED25519 key \(fpB) is never trusted for 'host.test'.\n")
        assertResult(try hb(["known-hosts", "check", "host.test", "--key", keyB]), 12,
                     stdout: "revoked: the ED25519 key \(fpB) is revoked for 'host.test'\n")
        assertResult(try hb(["known-hosts", "approve", "host.test", "--key", keyB, "--yes"]), 12, stdout: "",
                     stderr: "hostbook: the ED25519 key \(fpB) is revoked for 'host.test'; it cannot be approved\n")
        // Remove forgets the trusted key (the @revoked entry stays).
        assertResult(try hb(["known-hosts", "remove", "host.test"]), 0, stdout: "Removed 1 entry for 'host.test'.\n")
        assertResult(try hb(["known-hosts", "remove", "host.test"]), 4, stdout: "",
                     stderr: "hostbook: no trusted key is stored for 'host.test'\nRun 'hostbook known-hosts list' to see the entries.\n")
        assertResult(try hb(["known-hosts", "check", "host.test", "--key", keyA]), 10)

        // The audit trail, in order, with sources: its own command, an array of events.
        let r = try hb(["known-hosts", "history", "host.test", "--json"])
        assertResult(r, 0)
        let events = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(events.map { $0["event"] as? String }, ["approved", "rejected", "rejected", "replaced", "revoked", "removed"])
        XCTAssertEqual(events[3]["old_fingerprint"] as? String, fpA)
        XCTAssertEqual(events[3]["fingerprint"] as? String, fpB)
        XCTAssertTrue(events.allSatisfy { ($0["created_at"] as? String)?.hasSuffix("Z") == true && $0["source"] as? String == "manual" })
        let text = try hb(["known-hosts", "history", "host.test"])
        assertResult(text, 0)
        XCTAssertEqual(text.stdout.split(separator: "\n").count, 7, text.stdout)
        XCTAssertTrue(text.stdout.contains("replaced  host.test  22    \(fpA) -> \(fpB)  manual"), text.stdout)
        // `list HOST --json` is an array of entries, as without HOST.
        let list = try hb(["known-hosts", "list", "host.test", "--json"])
        assertResult(list, 0)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: list.stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["marker"] as? String }, ["revoked"])
        let all = try XCTUnwrap(JSONSerialization.jsonObject(with: try hb(["known-hosts", "list", "--json"]).stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(all.count, entries.count)
        assertResult(try hb(["known-hosts", "history", "nowhere.test"]), 4, stdout: "",
                     stderr: "hostbook: nothing was ever decided about 'nowhere.test'\nRun 'hostbook known-hosts history' to see every host's events.\n")
    }

    func testUsageErrors() throws {
        assertResult(try hb(["known-hosts", "check", "h.test"]), 2, stdout: "",
                     stderr: "hostbook: --key is required\nGive the host key as --key \"TYPE BASE64\", e.g. from 'ssh-keyscan HOST'.\n")
        assertResult(try hb(["known-hosts", "check", "h.test", "--key", "ssh-ed25519 !!"]), 2, stdout: "",
                     stderr: "hostbook: --key is not a valid host key: the key data is not valid base64\n"
                        + "Give the host key as --key \"TYPE BASE64\", e.g. from 'ssh-keyscan HOST'.\n")
        assertResult(try hb(["known-hosts", "check", "h.test", "--port", "70000", "--key", keyA]), 2, stdout: "",
                     stderr: "hostbook: --port must be a whole number from 1 to 65535, not '70000'\n")
        assertResult(try hb(["known-hosts", "check", "a b", "--key", keyA]), 2, stdout: "",
                     stderr: "hostbook: 'a b' is not a host name: it contains whitespace\n" + "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.\n")
        assertResult(try hb(["known-hosts", "approve", "*.test", "--key", keyA, "--yes"]), 2, stdout: "",
                     stderr: "hostbook: '*.test' is not a host name: it is a pattern (* and ? are wildcards in known_hosts)\n" + "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.\n")
        assertResult(try hb(["known-hosts", "check", "[h.test]:2222", "--port", "22", "--key", keyA]), 2, stdout: "",
                     stderr: "hostbook: '[h.test]:2222' is not a host name: it names port 2222 but --port says 22\n" + "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file.\n")
        // ssh's own spelling [host]:port is understood.
        assertResult(try hb(["known-hosts", "approve", "[h.test]:2222", "--key", keyA, "--yes"]), 0)
        assertResult(try hb(["known-hosts", "check", "h.test", "--port", "2222", "--key", keyA]), 0,
                     stdout: "trusted: the ED25519 key \(fpA) is trusted for 'h.test' (port 2222)\n")
    }

    func testImportReportsBadLinesAndExportRoundTripsThroughSSHKeygen() throws {
        let file = tmp.file("known_hosts")
        let text = """
            # a comment
            one.test,two.test \(keyA) first
            [three.test]:2222 \(keyB)

            @what \(keyA)
            *.wild.test \(keyB)
            broken.test ssh-ed25519 AAAATgAAAAdz
            @revoked one.test \(keyB)

            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        assertResult(try hb(["known-hosts", "import", file]), 0,
                     stdout: "Imported 5 entries, 0 duplicates, skipped 2 bad lines.\n",
                     stderr: "hostbook: warning: \(file):5: unknown marker '@what' (expected @cert-authority or @revoked); line skipped\n"
                        + "hostbook: warning: \(file):7: a length field (78) runs past the end of the data; line skipped\n")
        assertResult(try hb(["known-hosts", "import", file]), 0, stdout: "Imported 0 entries, 5 duplicates, skipped 2 bad lines.\n")
        // The default file is ~/.ssh/known_hosts.
        assertResult(try hb(["known-hosts", "import"]), 1, stdout: "",
                     stderr: "hostbook: cannot read '\(tmp.path)/.ssh/known_hosts': No such file or directory\n")

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { throw XCTSkip("no ssh-keygen") }
        for hashed in [false, true] {
            let r = try hb(["known-hosts", "export"] + (hashed ? ["--hashed"] : []))
            assertResult(r, 0, stderr: "")
            let out = tmp.file(hashed ? "export-hashed" : "export-plain")
            try r.stdoutBytes.write(to: URL(fileURLWithPath: out))
            if !hashed {
                XCTAssertEqual(r.stdout, """
                    one.test \(keyA) first
                    two.test \(keyA) first
                    [three.test]:2222 \(keyB)
                    *.wild.test \(keyB)
                    @revoked one.test \(keyB)

                    """)
            } else {
                XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasPrefix("|1|") }.count, 3)
            }
            for (name, lines) in [("one.test", 2), ("two.test", 1), ("[three.test]:2222", 1), ("three.test", 0), ("x.wild.test", 1)] {
                let found = try sshKeygenFind(name, out)
                XCTAssertEqual(found, lines, "\(hashed ? "hashed" : "plain"): \(name)")
            }
            // The exported file imports into a fresh store with the same decisions.
            let fresh = ["HOSTBOOK_DB": tmp.file("fresh-\(hashed).db"), "HOME": tmp.path]
            XCTAssertEqual(try cli.call(["known-hosts", "import", out], environment: fresh).status, 0)
            XCTAssertEqual(try cli.call(["known-hosts", "check", "two.test", "--key", keyA], environment: fresh).status, 0)
            XCTAssertEqual(try cli.call(["known-hosts", "check", "three.test", "--port", "2222", "--key", keyB], environment: fresh).status, 0)
            XCTAssertEqual(try cli.call(["known-hosts", "check", "one.test", "--key", keyB], environment: fresh).status, 12)
        }
    }

    func sshKeygenFind(_ name: String, _ path: String) throws -> Int {
        try Tool.run("/usr/bin/ssh-keygen", ["-F", name, "-f", path]).stdout.split(separator: "\n").filter { $0.hasPrefix("# Host ") }.count
    }
}
