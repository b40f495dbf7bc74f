// The program's global behaviour: version, help, unknown commands and flags.
import XCTest

final class GlobalCommandTests: XCTestCase {
    func testVersion() throws {
        let r = try HostbookProcess.run(["--version"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "hostbook 0.1.0\n")
        XCTAssertEqual(r.stderr, "")
    }

    func testHelpListsUsage() throws {
        let r = try HostbookProcess.run(["--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Usage: hostbook <command> [options]"))
    }

    func testUnknownCommandIsUsageError() throws {
        let r = try HostbookProcess.run(["frobnicate"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "hostbook: unknown command 'frobnicate'\nRun 'hostbook --help' to see the commands.\n")
        XCTAssertEqual(r.stdout, "")
    }

    func testUnknownGlobalFlagIsUsageError() throws {
        let r = try HostbookProcess.run(["--frobnicate"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "hostbook: unknown option '--frobnicate'\nRun 'hostbook --help' for usage.\n")
    }

    func testNoCommandIsUsageError() throws {
        let r = try HostbookProcess.run([])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: no command given\n"))
    }
}

/// Every command of the contract (docs/command-line.md, "Commands") has --help: exit 0, its
/// usage line, the global options, and text that fits a terminal.
final class HelpTextTests: XCTestCase {
    static let commands: [[String]] = [
        ["add"], ["edit"], ["remove"], ["list"], ["show"], ["import-tailscale"], ["import-ssh-config"], ["doctor"],
        ["keys", "import"], ["keys", "import-agent"], ["agent", "upstream", "list"], ["agent", "upstream", "add"],
        ["agent", "upstream", "remove"], ["keys", "generate"], ["keys", "import-resident"], ["keys", "import-token"], ["keys", "list"], ["keys", "show"], ["keys", "public"],
        ["keys", "export"], ["keys", "remove"], ["keys", "edit"], ["keys", "allowed-signers"], ["keys", "cert", "add"], ["keys", "cert", "remove"], ["git", "setup"],
        ["known-hosts", "check"], ["known-hosts", "approve"], ["known-hosts", "scan"], ["known-hosts", "list"], ["known-hosts", "history"],
        ["known-hosts", "remove"], ["known-hosts", "revoke"], ["known-hosts", "rotation"], ["known-hosts", "import"], ["known-hosts", "export"],
        ["snippets", "add"], ["snippets", "edit"], ["snippets", "list"], ["snippets", "show"], ["snippets", "remove"],
        ["vault", "status"], ["vault", "unlock"], ["vault", "lock"],
        ["bundle", "export"], ["bundle", "trust"], ["bundle", "import"], ["bundle", "subscribe"], ["bundle", "update"],
        ["ca", "create"], ["ca", "list"], ["ca", "public"], ["ca", "sign"], ["ca", "log"], ["ca", "revoke"], ["ca", "krl"],
    ]

    func testEveryCommandHasHelp() throws {
        for words in Self.commands {
            for flag in ["--help", "-h"] {
                // Global flags are accepted before or after the command words.
                for args in [words + [flag], [flag] + words] {
                    let r = try HostbookProcess.run(args)
                    XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
                    XCTAssertEqual(r.stderr, "", "\(args)")
                    XCTAssertTrue(r.stdout.contains("\nUsage: hostbook \(words.joined(separator: " "))"), "\(args): \(r.stdout)")
                    XCTAssertTrue(r.stdout.contains("\nGlobal options:\n  --db PATH"), "\(args)")
                    for line in r.stdout.split(separator: "\n") where !line.hasPrefix("Usage:") {
                        XCTAssertLessThanOrEqual(line.count, 130, "\(args): \(line)")
                    }
                }
            }
        }
    }

    func testGroupsListTheirCommands() throws {
        for group in ["keys", "known-hosts", "snippets", "vault", "ca"] {
            let r = try HostbookProcess.run([group, "--help"])
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stdout.contains("Usage: hostbook \(group) <command> [options]\n"))
            for words in Self.commands where words.first == group {
                XCTAssertTrue(r.stdout.contains("\n  \(words[1]) "), "\(group) --help lacks \(words[1])")
            }
            // A group alone prints its help, as `gh` does (ArgumentParsingTests has the details).
            let bare = try HostbookProcess.run([group])
            XCTAssertEqual(bare.status, 0)
            XCTAssertEqual(bare.stdout, r.stdout)
        }
    }

    func testVaultStatusHelpExactly() throws {
        let r = try HostbookProcess.run(["vault", "status", "--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasSuffix("""

            Global options:
              --db PATH           Database file (default $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db)
              --json              Print machine-readable JSON
              --no-input          Never prompt; fail with exit 3 when input would be needed
              --help              Show help for the command
              --version           Print the version

            """), r.stdout)
    }
}
