// Help text from the command table, in-process.
@testable import hostbook
import XCTest

/// Every command of the contract (docs/command-line.md, "Commands") has --help: its usage
/// line, the global options, and text that fits a terminal; a group alone is its help.
/// In-process on the parser (was HostbookTests/GlobalCommandTests.swift's HelpTextTests,
/// 190 runs of the binary); through Hostbook.main: ArgumentParsingLogicTests' help tests.
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

    /// The text `hostbook ARGS` prints on stdout (exit 0, Hostbook.main) when ARGS ask for help; a
    /// parse to anything else fails the test.
    private func help(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard case .help(let text) = try CommandLineParser(commands: CommandTable.all).parse(args) else {
            XCTFail("\(args) is not a request for help", file: file, line: line)
            return ""
        }
        return text
    }

    func testEveryCommandHasHelp() throws {
        for words in Self.commands {
            for flag in ["--help", "-h"] {
                // Global flags are accepted before or after the command words.
                for args in [words + [flag], [flag] + words] {
                    let r = try help(args)
                    XCTAssertTrue(r.contains("\nUsage: hostbook \(words.joined(separator: " "))"), "\(args): \(r)")
                    XCTAssertTrue(r.contains("\nGlobal options:\n  --db PATH"), "\(args)")
                    for line in r.split(separator: "\n") where !line.hasPrefix("Usage:") {
                        XCTAssertLessThanOrEqual(line.count, 130, "\(args): \(line)")
                    }
                }
            }
        }
    }

    func testGroupsListTheirCommands() throws {
        for group in ["keys", "known-hosts", "snippets", "vault", "ca"] {
            let r = try help([group, "--help"])
            XCTAssertTrue(r.contains("Usage: hostbook \(group) <command> [options]\n"))
            for words in Self.commands where words.first == group {
                XCTAssertTrue(r.contains("\n  \(words[1]) "), "\(group) --help lacks \(words[1])")
            }
            // A group alone prints its help, as `gh` does (ArgumentParsingLogicTests has the details).
            XCTAssertEqual(try help([group]), r)
        }
    }

    func testVaultStatusHelpExactly() throws {
        let r = try help(["vault", "status", "--help"])
        XCTAssertTrue(r.hasSuffix("""

            Global options:
              --db PATH           Database file (default $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db)
              --json              Print machine-readable JSON
              --no-input          Never prompt; fail with exit 3 when input would be needed
              --help              Show help for the command
              --version           Print the version

            """), r)
    }

    /// `hostbook help WORDS` prints what `hostbook WORDS --help` does, for every command and
    /// group and for none (was ArgumentParsingTests.testHelpCommandPrintsTheSameTextAsDashDashHelp,
    /// 98 runs of the binary; `help` exactly: ArgumentParsingLogicTests.testHelpTextExactly).
    func testHelpCommandPrintsTheSameTextAsDashDashHelp() throws {
        for words in Self.commands + [["keys"], ["known-hosts"], ["snippets"], ["vault"], []] {
            let viaHelp = try help(["help"] + words)
            XCTAssertFalse(viaHelp.isEmpty, "help \(words)")
            XCTAssertEqual(viaHelp, try help(words + ["--help"]), "help \(words)")
        }
    }
}
