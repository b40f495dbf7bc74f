// `hostbook import-tailscale` in-process (InProcessCommand runs Hostbook.main on a real
// SQLite file): every fixture in testdata/tailscale (written by hand; its README says what
// each holds), its report and JSON, re-import, rotation, refusals that change nothing,
// selection, standard input and a stand-in tailscale command on PATH. Moved from
// HostbookTests/ImportTailscaleTests, which keeps the interactive choice on a terminal.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportTailscaleLogicTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func own(_ name: String) -> String { Self.packageRoot.appendingPathComponent("testdata/tailscale/\(name)").path }

    var cli: InProcessCommand!
    var db: String { cli.folder.file("hostbook.db") }

    override func setUpWithError() throws { cli = try InProcessCommand() }
    override func tearDown() { cli = nil }

    func hostbook(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> InProcessCommand.Outcome {
        try cli.call(["--db", db] + args, bytes: stdin, environment: environment)
    }

    func assertRun(_ args: [String], status: Int32, stdout: String, stderr: String = "",
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try hostbook(args)
        XCTAssertEqual(r.stdout, stdout, "stdout of \(args)", file: file, line: line)
        XCTAssertEqual(r.stderr, stderr, "stderr of \(args)", file: file, line: line)
        XCTAssertEqual(r.status, status, "exit status of \(args)", file: file, line: line)
    }


    func testDeviceList() throws {
        try assertRun(["import-tailscale", own("devices-five.json"), "--all"], status: 0, stdout: """
            ACTION   NAME                HOSTNAME                              DETAILS
            added    web01               web01.tail4f21c8.ts.net               linux, online
            skipped  alices-macbook-air  alices-macbook-air.tail4f21c8.ts.net  blocks incoming connections
            added    db-prod-1           db-prod-1.tail4f21c8.ts.net           linux, online, tag:db tag:prod
            skipped  new-pi              new-pi.tail4f21c8.ts.net              not authorized
            added    carol-nas           carol-nas.tail9e7d21.ts.net           linux, offline
            3 added, 0 updated, 0 unchanged, 2 skipped; 0 host-key entries trusted.

            """)
    }

    func testStatusThenDeviceListMatchesByNodeID() throws {
        _ = try hostbook(["import-tailscale", own("status-four-peers.json"), "--all"])
        let r = try hostbook(["import-tailscale", own("devices-five.json"), "--all", "--json"])
        XCTAssertEqual(r.status, 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "devices")
        XCTAssertEqual(json["added"] as? Int, 1)          // carol-nas (shared-in in the status, external here)
        XCTAssertEqual(json["unchanged"] as? Int, 2)      // web01, db-prod-1 (tagged: no owner in either)
        XCTAssertEqual(json["updated"] as? Int, 0)
        XCTAssertEqual(json["skipped"] as? Int, 2)
    }

    func testDuplicateHostnames() throws {
        try assertRun(["import-tailscale", own("status-same-hostname.json"), "--all"], status: 0, stdout: """
            ACTION   NAME               HOSTNAME                             DETAILS
            skipped  alice-workstation  alice-workstation.tail4f21c8.ts.net  this machine
            added    raspberrypi        raspberrypi.tail4f21c8.ts.net        linux, online, 1 host key
            added    raspberrypi-1      raspberrypi-1.tail4f21c8.ts.net      linux, offline, 1 host key
            2 added, 0 updated, 0 unchanged, 1 skipped; 6 host-key entries trusted.

            """)
    }

    func testUnicodeHostnames() throws {
        try assertRun(["import-tailscale", own("status-unicode-names.json"), "--all"], status: 0, stdout: """
            ACTION   NAME               HOSTNAME                             DETAILS
            skipped  alice-workstation  alice-workstation.tail4f21c8.ts.net  this machine
            added    rd-lab             rd-lab.tail4f21c8.ts.net             linux, online, tag:lab
            added    xn---01-2f1nx7p    xn---01-2f1nx7p.tail4f21c8.ts.net    linux, online
            added    zos-build-box      zos-build-box.tail4f21c8.ts.net      macOS, offline
            added    xn--bcher-nas-q9a  xn--bcher-nas-q9a.tail4f21c8.ts.net  linux, online, 1 host key
            4 added, 0 updated, 0 unchanged, 1 skipped; 3 host-key entries trusted.

            """)
    }

    func testEmptyPeersImportsNothingWithoutError() throws {
        // No device to choose from, so no --all is needed even without a terminal.
        try assertRun(["import-tailscale", own("status-no-peers.json")], status: 0, stdout: """
            ACTION   NAME               HOSTNAME                             DETAILS
            skipped  alice-workstation  alice-workstation.tail4f21c8.ts.net  this machine
            0 added, 0 updated, 0 unchanged, 1 skipped; 0 host-key entries trusted.

            """)
    }

    func testRefusalsChangeNothing() throws {
        let cases: [(input: String, stderr: String)] = [
            (own("status-cut-off.json"), """
                hostbook: the input is not valid JSON: it ends early, at line 91 (the input looks cut off)
                Export it again in full: tailscale status --json > status.json

                """),
            (own("inventory-not-tailscale.json"), """
                hostbook: the input is JSON but not a Tailscale status or device list
                Pass the output of 'tailscale status --json' or the body of GET /api/v2/tailnet/-/devices.

                """),
            (own("status-stopped.json"), """
                hostbook: the Tailscale status was taken while Tailscale was not running (BackendState Stopped); it lists no peers
                Start Tailscale ('tailscale up') and export the status again.

                """),
            (own("status-wrong-type.json"), """
                hostbook: the input looks like Tailscale JSON but Peer["nodekey:\(String(repeating: "9", count: 64))"].TailscaleIPs is a string, expected an array of strings
                Pass the output of 'tailscale status --json' or the body of GET /api/v2/tailnet/-/devices.

                """),
            (own("README.md"), """
                hostbook: the input is not valid JSON: unexpected '#' at line 1, column 1
                Pass the output of 'tailscale status --json' or the body of GET /api/v2/tailnet/-/devices.

                """),
            (cli.folder.file("missing.json"), "hostbook: cannot open '\(cli.folder.file("missing.json"))': No such file or directory\n"),
            (try utf16File(), """
                hostbook: the input is UTF-16 text; JSON must be UTF-8
                In PowerShell, save it as UTF-8: tailscale status --json | Out-File -Encoding utf8 status.json

                """),
        ]
        // On a fresh path, a refused input does not even create the database.
        for c in cases {
            let r = try hostbook(["import-tailscale", c.input, "--all"])
            XCTAssertEqual(r.stderr, c.stderr, c.input)
            XCTAssertEqual(r.stdout, "", c.input)
            XCTAssertEqual(r.status, 1, c.input)
            XCTAssertFalse(FileManager.default.fileExists(atPath: db), c.input)
        }
        // On an existing database, the files are byte for byte what they were.
        _ = try hostbook(["import-tailscale", own("status-rotation-before.json"), "--all"])
        let before = try databaseBytes()
        for c in cases {
            let r = try hostbook(["import-tailscale", c.input, "--all"])
            XCTAssertEqual(r.status, 1, c.input)
            XCTAssertEqual(try databaseBytes(), before, c.input)
        }
        // Standard input too.
        let r = try hostbook(["import-tailscale", "-", "--all"], stdin: Data("{\"Self\": {\"ID\": \"n1\"".utf8))
        XCTAssertEqual(r.stderr, """
            hostbook: the input is not valid JSON: it ends early, at line 1 (the input looks cut off)
            Export it again in full: tailscale status --json > status.json

            """)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(try databaseBytes(), before)
    }

    /// What Windows PowerShell's `>` makes of a status: UTF-16LE with a byte order mark.
    func utf16File() throws -> String {
        let path = cli.folder.file("utf16.json")
        let text = try String(contentsOfFile: own("status-rotation-before.json"), encoding: .utf8)
        try (Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The database file and its write-ahead log, if that holds anything (a reader may leave
    /// an empty one behind).
    func databaseBytes() throws -> [Data] {
        try [db, db + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
            .map { try Data(contentsOf: URL(fileURLWithPath: $0)) }.filter { !$0.isEmpty }
    }

    func testRotationIsRecordedAndReported() throws {
        _ = try hostbook(["import-tailscale", own("status-rotation-before.json"), "--all", "--user", "deploy"])
        // The known-hosts store trusts what the import pinned, for the name and each address.
        let k1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP1bJvlrd+7p4T6xtakwqQR3DRoz67gRs0jN4BkEHc6T"
        let k2 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKrTVViJtIk7ms/PsP6jrg2bMlMQJgExY2t2dd3HNEB4"
        for host in ["build01.tail7c3e90.ts.net", "100.80.1.1", "fd7a:115c:a1e0::5001:101"] {
            XCTAssertEqual(try hostbook(["known-hosts", "check", host, "--key", k1]).status, 0, host)
            XCTAssertEqual(try hostbook(["known-hosts", "check", host, "--key", k2]).status, 11, host)
        }
        try assertRun(["import-tailscale", own("status-rotation-after.json"), "--all"], status: 0, stdout: """
            ACTION     NAME     HOSTNAME                   DETAILS
            skipped    laptop   laptop.tail7c3e90.ts.net   this machine
            unchanged  build01  build01.tail7c3e90.ts.net  linux, online, 2 host keys
            updated    cache01  cache01.tail7c3e90.ts.net  linux, offline, tag:ci tag:cache, 1 host key
            Host key rotated: build01 ssh-ed25519 SHA256:vN+SsgvrBxyA2iYFkEcQE1xltiipjSCWfEs9kWwJQ5I -> SHA256:E/9vrCab7RZE88AQqwrzWf5UWjO1bn4S4RTDY1pQl+g
            0 added, 1 updated, 1 unchanged, 1 skipped; 3 host-key entries trusted, 1 rotated.

            """)
        // The audit trail holds one 'replaced' event per name the key is trusted for.
        let events = try sqlite("SELECT event, host, old_fingerprint, fingerprint, source FROM host_key_events WHERE event = 'replaced' ORDER BY id")
        XCTAssertEqual(events, """
            replaced|build01.tail7c3e90.ts.net|SHA256:vN+SsgvrBxyA2iYFkEcQE1xltiipjSCWfEs9kWwJQ5I|SHA256:E/9vrCab7RZE88AQqwrzWf5UWjO1bn4S4RTDY1pQl+g|tailscale
            replaced|100.80.1.1|SHA256:vN+SsgvrBxyA2iYFkEcQE1xltiipjSCWfEs9kWwJQ5I|SHA256:E/9vrCab7RZE88AQqwrzWf5UWjO1bn4S4RTDY1pQl+g|tailscale
            replaced|fd7a:115c:a1e0::5001:101|SHA256:vN+SsgvrBxyA2iYFkEcQE1xltiipjSCWfEs9kWwJQ5I|SHA256:E/9vrCab7RZE88AQqwrzWf5UWjO1bn4S4RTDY1pQl+g|tailscale

            """)
        XCTAssertEqual(try sqlite("SELECT name, user FROM hosts ORDER BY name"), "build01|deploy\ncache01|deploy\n")
        for host in ["build01.tail7c3e90.ts.net", "100.80.1.1", "fd7a:115c:a1e0::5001:101"] {
            XCTAssertEqual(try hostbook(["known-hosts", "check", host, "--key", k2]).status, 0, host)
            XCTAssertEqual(try hostbook(["known-hosts", "check", host, "--key", k1]).status, 11, host)
        }
        // And a third time: nothing left to do.
        let r = try hostbook(["import-tailscale", own("status-rotation-after.json"), "--all"])
        XCTAssertTrue(r.stdout.hasSuffix("0 added, 0 updated, 2 unchanged, 1 skipped; 0 host-key entries trusted.\n"), r.stdout)
    }

    func testReimportKeepsEditsMadeWithHostbookEdit() throws {
        _ = try hostbook(["import-tailscale", own("status-rotation-before.json"), "--all"])
        let edit = try hostbook(["edit", "cache01", "--rename", "ci-cache", "--user", "ops", "--note", "mine", "--tag", "favourite"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let r = try hostbook(["import-tailscale", own("status-rotation-after.json"), "--all", "--user", "deploy"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("updated  ci-cache  cache01.tail7c3e90.ts.net  linux, offline, tag:ci tag:cache, 1 host key\n"), r.stdout)
        let show = try hostbook(["show", "ci-cache", "--json"])
        let host = try XCTUnwrap(JSONSerialization.jsonObject(with: show.stdoutBytes) as? [String: Any])
        XCTAssertEqual(host["user"] as? String, "ops")
        XCTAssertEqual(host["note"] as? String, "mine")
        XCTAssertEqual(host["source"] as? String, "tailscale")
        XCTAssertEqual(host["source_id"] as? String, "nFixCache01CNTRL")
        XCTAssertEqual(Set(host["tags"] as? [String] ?? []), ["favourite", "tag:ci", "tag:cache"])
        let list = try hostbook(["list", "--source", "tailscale"])
        XCTAssertEqual(list.stdout.split(separator: "\n").dropFirst().map { String($0.prefix(while: { $0 != " " })) }, ["build01", "ci-cache"])
    }

    func testDryRunPrintsThePlanAndWritesNothing() throws {
        _ = try hostbook(["import-tailscale", own("status-rotation-before.json"), "--all"])
        let before = try databaseBytes()
        let plan = try hostbook(["import-tailscale", own("status-rotation-after.json"), "--all", "--dry-run"])
        XCTAssertEqual(plan.status, 0)
        XCTAssertEqual(try databaseBytes(), before)
        let real = try hostbook(["import-tailscale", own("status-rotation-after.json"), "--all"])
        // The same table; only the summary line says it was a dry run.
        XCTAssertEqual(plan.stdout, real.stdout.replacingOccurrences(of: "0 added, 1 updated", with: "Dry run, nothing written: 0 added, 1 updated"))
        XCTAssertTrue(real.stdout.contains("Host key rotated: build01 ssh-ed25519"), real.stdout)
        // --json has the same plan, marked as a dry run.
        let json = try hostbook(["import-tailscale", own("status-rotation-after.json"), "--all", "--dry-run", "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        XCTAssertEqual(object["dry_run"] as? Bool, true)
        XCTAssertEqual(object["unchanged"] as? Int, 2)
    }

    func testNameClashSkippedThenRenamed() throws {
        _ = try hostbook(["import-tailscale", own("status-four-peers.json"), "--only", "web01"])
        try assertRun(["import-tailscale", own("status-clash-web01.json"), "--all"], status: 0, stdout: """
            ACTION   NAME    HOSTNAME                  DETAILS
            skipped  laptop  laptop.tail7c3e90.ts.net  this machine
            skipped  web01   web01.tailb51d04.ts.net   a host named 'web01' already exists (not this Tailscale node); use --rename-clashes to import it under another name
            0 added, 0 updated, 0 unchanged, 2 skipped; 0 host-key entries trusted.

            """)
        try assertRun(["import-tailscale", own("status-clash-web01.json"), "--only", "nFixWeb001CNTRL", "--rename-clashes"], status: 0, stdout: """
            ACTION  NAME     HOSTNAME                 DETAILS
            added   web01-2  web01.tailb51d04.ts.net  linux, online, renamed: a host named 'web01' already exists
            1 added, 0 updated, 0 unchanged, 0 skipped; 0 host-key entries trusted.

            """)
    }

    func testBadHostKeysAreWarnedAbout() throws {
        try assertRun(["import-tailscale", own("status-bad-host-key.json"), "--all"], status: 0, stdout: """
            ACTION   NAME    HOSTNAME                  DETAILS
            skipped  laptop  laptop.tail7c3e90.ts.net  this machine
            added    keybox  keybox.tail7c3e90.ts.net  linux, online, 1 host key
            1 added, 0 updated, 0 unchanged, 1 skipped; 2 host-key entries trusted.

            """, stderr: """
            hostbook: warning: keybox: ssh-ed25519 not trusted: not a valid SSH public key: a length field (32) runs past the end of the data
            hostbook: warning: keybox: not-a-key not trusted: not a valid SSH public key: no key data after the key type 'not-a-key'

            """)
    }

    func testOldFormatAndNoHostKeys() throws {
        try assertRun(["import-tailscale", own("status-old-format.json"), "--all"], status: 0, stdout: """
            ACTION   NAME       HOSTNAME                  DETAILS
            skipped  laptop     laptop.tail7c3e90.ts.net  this machine
            added    oldbox     oldbox.tail7c3e90.ts.net  linux
            added    old-box-2  100.80.2.2                
            2 added, 0 updated, 0 unchanged, 1 skipped; 0 host-key entries trusted.

            """)
        let r = try hostbook(["import-tailscale", own("status-rotation-before.json"), "--all", "--no-host-keys"])
        XCTAssertTrue(r.stdout.hasSuffix("2 added, 0 updated, 0 unchanged, 1 skipped; 0 host-key entries trusted.\n"), r.stdout)
        XCTAssertEqual(try sqlite("SELECT count(*) FROM known_hosts"), "0\n")
    }

    func testSelectionFlags() throws {
        let small = own("status-four-peers.json")
        try assertRun(["import-tailscale", small, "--all", "--tag", "prod", "--online", "--dry-run"], status: 0, stdout: """
            ACTION  NAME       HOSTNAME                     DETAILS
            added   db-prod-1  db-prod-1.tail4f21c8.ts.net  linux, online, tag:db tag:prod, 3 host keys
            Dry run, nothing written: 1 added, 0 updated, 0 unchanged, 0 skipped; 9 host-key entries trusted.

            """)
        // --only accepts the alias (any case), the MagicDNS name or the node ID; a device
        // skipped by default is imported when named.
        try assertRun(["import-tailscale", small, "--only", "WEB01,alices-macbook-air.tail4f21c8.ts.net,nH9cN4vJuCNTRL", "--dry-run"], status: 0, stdout: """
            ACTION  NAME                HOSTNAME                              DETAILS
            added   alices-macbook-air  alices-macbook-air.tail4f21c8.ts.net  macOS, offline
            added   web01               web01.tail4f21c8.ts.net               linux, online, 3 host keys
            added   carol-desktop       carol-desktop.tail9e7d21.ts.net       windows, online
            Dry run, nothing written: 3 added, 0 updated, 0 unchanged, 0 skipped; 9 host-key entries trusted.

            """)
        try assertRun(["import-tailscale", small, "--only", "web01,nope"], status: 4, stdout: "", stderr: """
            hostbook: no Tailscale device named 'nope' in the input
            Use the first label of its MagicDNS name (e.g. web01), its full name or its node ID.

            """)
        try assertRun(["import-tailscale", small], status: 3, stdout: "", stderr: """
            hostbook: a choice of Tailscale devices to import is needed but there is no terminal
            Use --all or --only NAME,... instead.

            """)
        try assertRun(["import-tailscale", small, "--all", "--only", "web01"], status: 2, stdout: "", stderr: """
            hostbook: --all and --only cannot be used together
            Run 'hostbook import-tailscale --help' for usage.

            """)
        try assertRun(["import-tailscale", small, "--all", "--user", "-oProxyCommand=x"], status: 5, stdout: "", stderr: """
            hostbook: invalid user '-oProxyCommand=x': use 1 to 64 letters, digits, '.', '_', '-' or '@', not starting with '-'

            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }

    func testListFindsTailscaleTagsWithOrWithoutTheirPrefix() throws {
        XCTAssertEqual(try hostbook(["import-tailscale", own("status-tagged.json"), "--all"]).status, 0)
        XCTAssertEqual(try hostbook(["add", "web", "--hostname", "10.0.0.5", "--tag", "prod"]).status, 0)
        XCTAssertEqual(try hostbook(["add", "old", "--hostname", "10.0.0.6", "--tag", "tag:legacy"]).status, 0)
        func names(_ tags: String...) throws -> [String] {
            let r = try hostbook(["list", "--json"] + tags.flatMap { ["--tag", $0] })
            XCTAssertEqual(r.status, 0, r.stderr)
            let list = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]])
            return list.compactMap { $0["name"] as? String }
        }
        XCTAssertEqual(try names("prod"), ["api01", "web"])
        XCTAssertEqual(try names("tag:prod"), ["api01", "web"])
        XCTAssertEqual(try names("PROD"), ["api01", "web"])
        XCTAssertEqual(try names("Tag:Prod", "web"), ["api01"])
        XCTAssertEqual(try names("legacy"), ["old"])
        XCTAssertEqual(try names("tag:legacy"), ["old"])
        XCTAssertEqual(try names("rod"), [])
        XCTAssertEqual(try names("tag:"), [])
        // The table (not streamed JSON) filters the same way.
        let table = try hostbook(["list", "--tag", "prod"])
        XCTAssertEqual(table.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }, ["api01", "web"])
        // Stored as Tailscale spells them.
        let api = try XCTUnwrap(JSONSerialization.jsonObject(with: try hostbook(["show", "api01", "--json"]).stdoutBytes) as? [String: Any])
        XCTAssertEqual(api["tags"] as? [String], ["tag:prod", "tag:web"])
        XCTAssertTrue((api["tailscale"] as? [String: Any])?["owner"] is NSNull, "\(api)")
        XCTAssertTrue(try hostbook(["show", "api01"]).stdout.contains("\nowner:     -\n"))
        let desk = try XCTUnwrap(JSONSerialization.jsonObject(with: try hostbook(["show", "desk01", "--json"]).stdoutBytes) as? [String: Any])
        XCTAssertEqual((desk["tailscale"] as? [String: Any])?["owner"] as? String, "dana@example.org")
    }

    func testAStatusFromANodeThatIsStartingIsImportedWithAWarning() throws {
        let text = try String(contentsOfFile: own("status-two-tailnets.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"BackendState\": \"Running\"", with: "\"BackendState\": \"Starting\"")
        let r = try hostbook(["import-tailscale", "-", "--all"], stdin: Data(text.utf8))
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "hostbook: warning: the Tailscale status was taken while Tailscale was not running (BackendState Starting); the device list may be incomplete or out of date\n")
        XCTAssertTrue(r.stdout.hasSuffix("2 added, 0 updated, 0 unchanged, 1 skipped; 0 host-key entries trusted.\n"), r.stdout)
    }

    // MARK: Helpers

    func testStatusSmall() throws {
        try assertRun(["import-tailscale", own("status-four-peers.json"), "--all"], status: 0, stdout: """
            ACTION   NAME                HOSTNAME                              DETAILS
            skipped  alice-workstation   alice-workstation.tail4f21c8.ts.net   this machine
            added    alices-macbook-air  alices-macbook-air.tail4f21c8.ts.net  macOS, offline
            added    db-prod-1           db-prod-1.tail4f21c8.ts.net           linux, online, tag:db tag:prod, 3 host keys
            added    web01               web01.tail4f21c8.ts.net               linux, online, 3 host keys
            skipped  carol-desktop       carol-desktop.tail9e7d21.ts.net       shared in (sharee node)
            3 added, 0 updated, 0 unchanged, 2 skipped; 18 host-key entries trusted.

            """)
        // Idempotent: the same input again changes nothing.
        try assertRun(["import-tailscale", own("status-four-peers.json"), "--all"], status: 0, stdout: """
            ACTION     NAME                HOSTNAME                              DETAILS
            skipped    alice-workstation   alice-workstation.tail4f21c8.ts.net   this machine
            unchanged  alices-macbook-air  alices-macbook-air.tail4f21c8.ts.net  macOS, offline
            unchanged  db-prod-1           db-prod-1.tail4f21c8.ts.net           linux, online, tag:db tag:prod, 3 host keys
            unchanged  web01               web01.tail4f21c8.ts.net               linux, online, 3 host keys
            skipped    carol-desktop       carol-desktop.tail9e7d21.ts.net       shared in (sharee node)
            0 added, 0 updated, 0 unchanged, 2 skipped; 0 host-key entries trusted.

            """.replacingOccurrences(of: "0 unchanged, 2", with: "3 unchanged, 2"))
    }

    func testJSONOutput() throws {
        let r = try hostbook(["import-tailscale", own("status-two-tailnets.json"), "--all", "--json"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            {
              "dry_run": false,
              "format": "status",
              "added": 2,
              "updated": 0,
              "unchanged": 0,
              "skipped": 1,
              "host_keys_trusted": 0,
              "hosts": [
                {
                  "name": "laptop",
                  "hostname": "laptop.tail7c3e90.ts.net",
                  "action": "skipped",
                  "reason": "this machine",
                  "node_id": "nFixSelf01CNTRL",
                  "tags": [],
                  "os": "linux",
                  "online": true,
                  "last_seen": null,
                  "owner": "dana@example.org",
                  "host_keys": 0
                },
                {
                  "name": "nas.tail7c3e90.ts.net",
                  "hostname": "nas.tail7c3e90.ts.net",
                  "action": "added",
                  "reason": null,
                  "node_id": "nFixNasA01CNTRL",
                  "tags": [],
                  "os": "linux",
                  "online": true,
                  "last_seen": null,
                  "owner": "dana@example.org",
                  "host_keys": 0
                },
                {
                  "name": "nas.tailb51d04.ts.net",
                  "hostname": "nas.tailb51d04.ts.net",
                  "action": "added",
                  "reason": null,
                  "node_id": "nFixNasB01CNTRL",
                  "tags": [],
                  "os": "linux",
                  "online": true,
                  "last_seen": null,
                  "owner": "dana@example.org",
                  "host_keys": 0
                }
              ],
              "rotations": [],
              "key_problems": [],
              "notes": []
            }

            """)
    }

    func testStandardInput() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: own("status-rotation-before.json")))
        let r = try hostbook(["import-tailscale", "-", "--all"], stdin: bytes)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("2 added, 0 updated, 0 unchanged, 1 skipped; 8 host-key entries trusted.\n"), r.stdout)
    }

    /// A stand-in `tailscale` on PATH: prints a file, or fails like a stopped tailscaled.
    func fakeTailscale(_ script: String) throws -> [String: String] {
        let bin = cli.folder.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let path = bin + "/tailscale"
        try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return ["PATH": bin + ":/usr/bin:/bin"]
    }

    func testRunsTailscaleStatusWithoutAFile() throws {
        let env = try fakeTailscale("[ \"$1 $2\" = \"status --json\" ] || exit 9\nexec cat '\(own("status-rotation-before.json"))'")
        let r = try hostbook(["import-tailscale", "--all"], environment: env)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasSuffix("2 added, 0 updated, 0 unchanged, 1 skipped; 8 host-key entries trusted.\n"), r.stdout)
    }

    /// Output that is not JSON is refused at its first byte, even from a command that would
    /// go on writing for ever.
    func testEndlessGarbageFromTailscaleIsRefusedPromptly() throws {
        let env = try fakeTailscale("exec yes garbage")
        let r = try hostbook(["import-tailscale", "--all"], environment: env)
        XCTAssertEqual(r.stderr, """
            hostbook: the output of 'tailscale status --json' cannot be used: the input is not valid JSON: unexpected 'g' at line 1, column 1
            Pass a file instead: run 'tailscale status --json > status.json' where Tailscale runs, then 'hostbook import-tailscale status.json'.

            """)
        XCTAssertEqual(r.status, 1)
    }

    func testTailscaleNotRunningOrMissing() throws {
        let env = try fakeTailscale("echo 'failed to connect to local tailscaled; it doesn'\\''t appear to be running' >&2\nexit 1")
        let r = try hostbook(["import-tailscale", "--all"], environment: env)
        XCTAssertEqual(r.stderr, """
            hostbook: 'tailscale status --json' failed: failed to connect to local tailscaled; it doesn't appear to be running
            Is Tailscale running ('tailscale up')? Or pass a file: hostbook import-tailscale FILE

            """)
        XCTAssertEqual(r.status, 1)
        let missing = try hostbook(["import-tailscale", "--all"], environment: ["PATH": cli.folder.file("nowhere")])
        XCTAssertEqual(missing.stderr, """
            hostbook: the 'tailscale' command was not found, so the device list cannot be read from it
            Pass a file instead: run 'tailscale status --json > status.json' where Tailscale runs, then 'hostbook import-tailscale status.json'.

            """)
        XCTAssertEqual(missing.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }

    /// Reads the database with the sqlite3 tool (skips when it is not installed).
    func sqlite(_ sql: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
