// The man page and `hostbook __complete`, in-process (InProcessCommand runs Hostbook.main):
// the command listing names what each command's first positional completes, the man page
// has every command and flag and renders cleanly (groff, man), and the fast path reads
// without creating or writing. Moved from HostbookTests/ShellIntegrationTests, which runs
// the completions in the real shells.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ShellIntegrationLogicTests: XCTestCase {
    var hb: InProcessCommand!
    var commands: [CompletionListing.Command] = []
    var globals: [String] = []

    override func setUpWithError() throws {
        hb = try InProcessCommand()
        let parsed = try hb.completionListing()
        commands = parsed.commands
        globals = parsed.globals
    }
    override func tearDown() { hb = nil }

    /// The commands a user names, by their words, with what their first positional completes.
    func testNamesAreCompletedWhereTheBriefSaysSo() {
        let expected: [String: String] = [
            "show": "hosts", "edit": "hosts", "remove": "hosts", "ssh": "hosts",
            "keys show": "keys", "keys public": "keys", "keys export": "keys", "keys remove": "keys",
            "snippets show": "snippets", "snippets edit": "snippets", "snippets remove": "snippets",
            "known-hosts check": "hosts", "known-hosts approve": "hosts", "known-hosts scan": "hosts",
            "known-hosts list": "hosts", "known-hosts remove": "hosts", "known-hosts revoke": "hosts",
            "keys import": "files", "known-hosts import": "files", "import-tailscale": "files", "import-ssh-config": "files",
        ]
        for (line, kind) in expected {
            let c = commands.first { $0.line == line }
            XCTAssertEqual(c?.positionals.first, kind, line)
        }
    }

    func testManPageHasEveryCommandAndFlagAndRendersCleanly() throws {
        let roff = try hb.ok("man").stdout
        XCTAssertTrue(roff.contains(".TH HOSTBOOK 1"))
        // Each command has its own section, which lists each of its options.
        for c in commands {
            let header = ".SS \"hostbook \(c.line)\"\n"
            guard let start = roff.range(of: header) else { XCTFail("no section for \(c.line)"); continue }
            let rest = roff[start.upperBound...]
            let end = rest.range(of: "\n.S")?.lowerBound ?? rest.endIndex
            let section = rest[..<end]
            for o in c.options {
                XCTAssertTrue(section.contains("\\fB" + o.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "\(c.line) \(o)")
            }
        }
        for g in globals { XCTAssertTrue(roff.contains("\\fB" + g.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), g) }

        let dir = try TempFolder()
        let page = dir.file("hostbook.1")
        try roff.write(toFile: page, atomically: true, encoding: .utf8)
        // groff with every warning on finds nothing to complain about.
        let groff = try Tool.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page])
        XCTAssertEqual(groff.status, 0)
        XCTAssertEqual(groff.stderr, "")
        // man renders it; every command and flag is in the text a reader sees.
        let man = try Tool.run("/usr/bin/man", ["-l", page], environment: ProcessInfo.processInfo.environment.merging(["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"]) { $1 })
        XCTAssertEqual(man.status, 0, man.stderr)
        let text = man.stdout.replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
        XCTAssertTrue(text.contains("HOSTBOOK(1)"))
        for c in commands { XCTAssertTrue(text.contains("hostbook \(c.line)"), c.line) }
        for o in Set(commands.flatMap(\.options) + globals) { XCTAssertTrue(text.contains(o), o) }
    }

    func testCompleteFastPathReadsWithoutCreatingOrWriting() throws {
        // No database: nothing printed, nothing created, exit 0.
        let none = try hb.run("__complete", "hosts")
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("data")))
        try hb.ok("add", "Web-1", "--hostname", "a.example")
        try hb.ok("add", "web-2", "--hostname", "b.example")
        try hb.ok("add", "db", "--hostname", "c.example")
        XCTAssertEqual(try hb.ok("__complete", "hosts").stdout, "db\nWeb-1\nweb-2\n")
        XCTAssertEqual(try hb.ok("__complete", "hosts", "--", "WE").stdout, "Web-1\nweb-2\n", "prefixes match regardless of case")
        XCTAssertEqual(try hb.ok("__complete", "keys").stdout, "")
        XCTAssertEqual(try hb.ok("__complete", "nonsense").stdout, "")
        // A read-only database (as another user's) is read all the same.
        let before = try FileManager.default.attributesOfItem(atPath: hb.db)[.modificationDate] as? Date
        XCTAssertEqual(try hb.ok("__complete", "hosts", "--db", hb.db, "d").stdout, "db\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: hb.db)[.modificationDate] as? Date, before)
        // Not a database at all: still quiet.
        try "not sqlite".write(toFile: hb.dir.file("junk.db"), atomically: true, encoding: .utf8)
        let junk = try hb.run("__complete", "hosts", "--db", hb.dir.file("junk.db"))
        XCTAssertEqual(junk.status, 0)
        XCTAssertEqual(junk.stdout + junk.stderr, "")
        // Hidden: not in the help.
        XCTAssertFalse(try hb.ok("--help").stdout.contains("__complete"))
        try hb.fails(["completions", "tcsh"], status: 2, stderr: "hostbook: unknown shell 'tcsh'\nUse bash, zsh or fish.\n")
    }
}
