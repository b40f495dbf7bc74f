// The command line in-process (InProcessCommand runs Hostbook.main on a real SQLite file):
// `--` ends the options, a malformed --port is exit 2 in every command that takes it, a
// group alone prints its help, the help text exactly and for every command of the table,
// and the nearest name suggested for a mistake. Moved from HostbookTests/ArgumentParsingTests,
// which keeps the binary's exit code 2 and stderr for a few usage errors.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ArgumentParsingLogicTests: XCTestCase {
    var hb: InProcessCommand!

    override func setUpWithError() throws { hb = try InProcessCommand() }
    override func tearDown() { hb = nil }

    func testDoubleDashEndsTheOptions() throws {
        try hb.ok("add", "web", "--hostname", "h")
        try hb.fails(["show", "--", "--json"], status: 4,
                     stderr: "hostbook: no host named '--json'\nSee 'hostbook list' for the hosts there are.\n")
        try hb.fails(["list", "--", "--json"], status: 2,
                     stderr: "hostbook: unexpected argument '--json' for 'hostbook list'\nRun 'hostbook list --help' for usage.\n")
        // --help after -- is a word, not a request for help.
        try hb.fails(["show", "--", "--help"], status: 4,
                     stderr: "hostbook: no host named '--help'\nSee 'hostbook list' for the hosts there are.\n")
    }

    /// A malformed value of an argument is a usage error (exit 2) in every command that
    /// takes it, with the same words.
    func testAMalformedPortIsExit2Everywhere() throws {
        try hb.ok("add", "web", "--hostname", "h")
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"
        let commands: [[String]] = [
            ["add", "x", "--hostname", "h"], ["edit", "web"],
            ["known-hosts", "check", "h", "--key", key], ["known-hosts", "approve", "h", "--key", key, "--yes"],
            ["known-hosts", "scan", "h"], ["known-hosts", "remove", "h"], ["known-hosts", "revoke", "h", "--key", key],
        ]
        for command in commands {
            for bad in ["0", "65536", "99999", "abc", "-5", ""] {
                try hb.fails(command + ["--port", bad], status: 2,
                             stderr: "hostbook: --port must be a whole number from 1 to 65535, not '\(bad)'\n")
            }
        }
        // Stored data that fails validation stays exit 5.
        try hb.fails(["add", "web", "--hostname", "h"], status: 5,
                     stderr: "hostbook: a host named 'web' already exists\nChoose another name, or change it with 'hostbook edit web'.\n")
    }

    func testAGroupAlonePrintsItsHelp() throws {
        for group in ["keys", "known-hosts", "snippets", "vault"] {
            let bare = try hb.run([group])
            XCTAssertEqual(bare.status, 0)
            XCTAssertEqual(bare.stderr, "")
            XCTAssertEqual(bare.stdout, try hb.run([group, "--help"]).stdout)
        }
    }

    func testHelpTextExactly() throws {
        let r = try hb.run(["help", "snippets", "show"])
        XCTAssertEqual(r.stdout, """
            Show a saved command line

            Usage: hostbook snippets show NAME

            Arguments:
              NAME          The snippet to show

            Global options:
              --db PATH           Database file (default $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db)
              --json              Print machine-readable JSON
              --no-input          Never prompt; fail with exit 3 when input would be needed
              --help              Show help for the command
              --version           Print the version

            """)
        let vault = try hb.run(["vault"])
        XCTAssertEqual(vault.stdout, """
            The Secret Service that holds passwords and keys

            Usage: hostbook vault <command> [options]

            Commands:
              status        Check that the Secret Service (keyring) is reachable and unlocked
              unlock        Start or unlock hostbook's own keyring where there is no desktop, and print its environment
              lock          Lock the vault: stop hostbook's own keyring, or lock the desktop's default keyring

            Run 'hostbook vault <command> --help' for a command's options.

            """)
        // --help wins over a mistake next to it, as in swift-argument-parser.
        let withMistake = try hb.run(["add", "--bogus", "--help"])
        XCTAssertEqual(withMistake.status, 0)
        XCTAssertTrue(withMistake.stdout.contains("Usage: hostbook add NAME --hostname H"), withMistake.stdout)
    }

    /// `hostbook --help` lists every command of the table: each top-level command and each
    /// group (`agent` was missing), each group's help starts with its summary (no empty
    /// first line) and lists its commands, and each command's usage line names every one
    /// of its options (`import-tailscale` left out `--include-skipped`).
    func testTheHelpListsEveryCommandOfTheTable() throws {
        let program = try hb.ok("--help").stdout
        let groups = Set(CommandTable.all.filter { $0.words.count > 1 }.map { $0.words[0] })
        XCTAssertTrue(groups.contains("agent"))
        for c in CommandTable.all {
            // A listed word is followed by its summary on the same line.
            let line = program.split(separator: "\n").first { $0.hasPrefix("  \(c.words[0]) ") }
            XCTAssertNotNil(line, "hostbook --help does not list '\(c.words[0])'")
            XCTAssertGreaterThan(line.map { $0.split(separator: " ").count } ?? 0, 1, "'\(c.words[0])' has no summary in hostbook --help")
        }
        for group in groups.sorted() {
            let help = try hb.ok(group, "--help").stdout
            XCTAssertFalse(help.hasPrefix("\n"), "\(group) --help starts with an empty line")
            XCTAssertFalse(help.split(separator: "\n").first?.hasPrefix("Usage:") ?? true, "\(group) --help has no summary")
            for c in CommandTable.all where c.words.count == 2 && c.words[0] == group {
                XCTAssertTrue(help.contains("\n  \(c.words[1]) "), "\(group) --help lacks \(c.words[1])")
            }
        }
        for c in CommandTable.all {
            let help = try hb.run(c.words + ["--help"]).stdout
            let usage = try XCTUnwrap(help.split(separator: "\n").first { $0.hasPrefix("Usage: ") }, c.commandLine)
            for o in c.declaration.options {
                XCTAssertNotNil(usage.range(of: "--\(o.name)(?![a-z-])", options: .regularExpression),
                                "the usage line of '\(c.commandLine)' does not name --\(o.name): \(usage)")
            }
        }
        XCTAssertEqual(try hb.ok("agent", "--help").stdout.split(separator: "\n").first,
                       "The standing ssh-agent for plain ssh, scp, rsync and git")
    }

    /// A mistyped command word, option or saved host gets the nearest known one as a
    /// suggestion, in the hint line; nothing is run, and the exit code is the one the
    /// mistake always had (2 for usage, 4 for a host that does not exist).
    func testAMistakeGetsTheNearestNameAsASuggestion() throws {
        let usage: [([String], String)] = [
            (["lsit"], "hostbook: unknown command 'lsit'\nDid you mean 'hostbook list'? Run 'hostbook --help' to see the commands.\n"),
            (["agnet"], "hostbook: unknown command 'agnet'\nDid you mean 'hostbook agent'? Run 'hostbook --help' to see the commands.\n"),
            (["help", "lsit"], "hostbook: unknown command 'lsit'\nDid you mean 'hostbook list'? Run 'hostbook --help' to see the commands.\n"),
            (["keys", "lsit"], "hostbook: unknown command 'lsit' for 'hostbook keys'\nDid you mean 'hostbook keys list'? Run 'hostbook keys --help' to see its commands.\n"),
            (["known-hosts", "aprove", "x"], "hostbook: unknown command 'aprove' for 'hostbook known-hosts'\nDid you mean 'hostbook known-hosts approve'? Run 'hostbook known-hosts --help' to see its commands.\n"),
            (["add", "web", "--hostname", "h", "--prot", "22"], "hostbook: unknown option '--prot' for 'hostbook add'\nDid you mean '--port'? Run 'hostbook add --help' for usage.\n"),
            (["edit", "web", "--prot=22"], "hostbook: unknown option '--prot' for 'hostbook edit'\nDid you mean '--port'? Run 'hostbook edit --help' for usage.\n"),
            (["list", "--jsno"], "hostbook: unknown option '--jsno' for 'hostbook list'\nDid you mean '--json'? Run 'hostbook list --help' for usage.\n"),
            (["list", "--tga", "x"], "hostbook: unknown option '--tga' for 'hostbook list'\nDid you mean '--tag'? Run 'hostbook list --help' for usage.\n"),
            // Only this command's options (and the global ones): `list` has no --port.
            (["list", "--prot"], "hostbook: unknown option '--prot' for 'hostbook list'\nRun 'hostbook list --help' for usage.\n"),
            // Nothing near: the hint as before.
            (["frobnicate"], "hostbook: unknown command 'frobnicate'\nRun 'hostbook --help' to see the commands.\n"),
            (["ls"], "hostbook: unknown command 'ls'\nRun 'hostbook --help' to see the commands.\n"),
        ]
        for (args, stderr) in usage { try hb.fails(args, status: 2, stderr: stderr) }
        XCTAssertEqual(hb.files(), [], "no suggestion ran anything")

        try hb.ok("add", "devbox", "--hostname", "127.0.0.1")
        try hb.ok("add", "gitbox", "--hostname", "127.0.0.1")
        let before = try hb.ok("list", "--json").stdout
        try hb.fails(["ssh", "devbx", "true"], status: 4,
                     stderr: "hostbook: no host named 'devbx'\nDid you mean 'devbox'? Run 'hostbook ssh devbox' to connect to it.\n")
        try hb.fails(["ssh", "DEVBX"], status: 4,
                     stderr: "hostbook: no host named 'DEVBX'\nDid you mean 'devbox'? Run 'hostbook ssh devbox' to connect to it.\n")
        try hb.fails(["show", "gitbx"], status: 4,
                     stderr: "hostbook: no host named 'gitbx'\nDid you mean 'gitbox'? See 'hostbook list' for the hosts there are.\n")
        try hb.fails(["edit", "devbx", "--port", "2222"], status: 4,
                     stderr: "hostbook: no host named 'devbx'\nDid you mean 'devbox'? See 'hostbook list' for the hosts there are.\n")
        try hb.fails(["remove", "devbx", "--yes"], status: 4,
                     stderr: "hostbook: no host named 'devbx'\nDid you mean 'devbox'? See 'hostbook list' for the hosts there are.\n")
        try hb.fails(["ssh", "production"], status: 4,
                     stderr: "hostbook: no host named 'production'\nRun 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.\n")
        // The name typed is escaped where it is printed; the suggestion is a saved name.
        try hb.fails(["show", "devb\u{1b}x"], status: 4,
                     stderr: "hostbook: no host named 'devb\\u{1b}x'\nDid you mean 'devbox'? See 'hostbook list' for the hosts there are.\n")
        XCTAssertEqual(try hb.ok("list", "--json").stdout, before, "nothing was changed or connected to")
    }
}
