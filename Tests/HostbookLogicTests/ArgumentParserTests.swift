// The command-line parser in-process: one parsing pass that knows each option's arity,
// global flags before or after the command words, every usage error's exact wording and
// exit code, and the pass-through of `hostbook ssh HOST [SSH-ARGS...]` (a command declared
// here). The same through Hostbook.main (`--`, help text, suggestions):
// ArgumentParsingLogicTests; the binary's exit code 2: HostbookTests/ArgumentParsingTests.
import enum CommandLineKit.ArgumentError
import Foundation
@testable import hostbook
import XCTest

final class ArgumentParserTests: XCTestCase {
    private func parsed(_ argv: [String]) throws -> (ParsedArguments, GlobalOptions) {
        guard case .run(_, let args, let globals) = try CommandLineParser(commands: CommandTable.all).parse(argv) else {
            XCTFail("\(argv) did not parse to a command")
            throw NSError(domain: "ArgumentParserTests", code: 1)
        }
        return (args, globals)
    }

    // MARK: Arity

    /// Was ArgumentParsingTests.testAValueOptionTakesTheNextWordWhateverItLooksLike (binary).
    func testAValueOptionTakesTheNextWordWhateverItLooksLike() throws {
        XCTAssertEqual(try parsed(["add", "web", "--hostname", "h", "--note", "-h"]).0.value(.note), "-h")
        let (api, apiGlobals) = try parsed(["add", "api", "--hostname", "h", "--note", "--json"])
        XCTAssertEqual(api.value(.note), "--json")
        XCTAssertFalse(apiGlobals.json)
        // --db as a value is the note, not a database path.
        let (db, dbGlobals) = try parsed(["add", "db", "--note", "--db", "--hostname", "h"])
        XCTAssertEqual(db.value(.note), "--db")
        XCTAssertEqual(db.value(.hostname), "h")
        XCTAssertNil(dbGlobals.dbPath)
        XCTAssertEqual(try parsed(["edit", "db", "--note", "--"]).0.value(.note), "--")
        let (eq, eqGlobals) = try parsed(["add", "eq", "--hostname=h", "--note=--help"])
        XCTAssertEqual(eq.value(.note), "--help")
        XCTAssertEqual(eq.value(.hostname), "h")
        XCTAssertFalse(eqGlobals.help)
    }

    /// Was ArgumentParsingTests.testGlobalFlagsStandBeforeOrAfterTheCommandWords (binary).
    func testGlobalFlagsStandBeforeOrAfterTheCommandWords() throws {
        for argv in [["list", "--json"], ["--json", "list"], ["--db", "d.db", "list", "--json"], ["list", "--db=d.db", "--json"]] {
            let (args, globals) = try parsed(argv)
            XCTAssertTrue(globals.json, "\(argv)")
            XCTAssertEqual(args.positionals, [], "\(argv)")
            XCTAssertEqual(globals.dbPath, argv.contains { $0.contains("d.db") } ? "d.db" : nil, "\(argv)")
        }
    }

    // MARK: Errors, exactly

    /// Was ArgumentParsingTests.testUsageErrorsExactly (18 runs of the binary; 3 stay there):
    /// each mistake is a usage error (exit 2) with this message and hint, printed as
    /// `hostbook: MESSAGE` and the hint on the next line.
    func testUsageErrorsExactly() throws {
        let cases: [([String], String)] = [
            (["add", "web", "--hostname", "h", "--bogus"], "hostbook: unknown option '--bogus' for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["add", "web", "--hostname", "h", "-x"], "hostbook: unknown option '-x' for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["add", "web", "--hostname", "h", "--note"], "hostbook: --note needs a value (TEXT)\nRun 'hostbook add --help' for usage.\n"),
            (["add", "web", "--hostname", "h", "--password-stdin=yes"], "hostbook: --password-stdin does not take a value\nRun 'hostbook add --help' for usage.\n"),
            (["list", "--json=1"], "hostbook: --json does not take a value\nRun 'hostbook list --help' for usage.\n"),
            (["add", "web", "--hostname", "h", "--hostname", "i"], "hostbook: --hostname was given more than once\nRun 'hostbook add --help' for usage.\n"),
            (["list", "--db"], "hostbook: --db needs a value (PATH)\nRun 'hostbook list --help' for usage.\n"),
            (["list", "--db="], "hostbook: --db needs a non-empty path\n"),
            (["frobnicate"], "hostbook: unknown command 'frobnicate'\nRun 'hostbook --help' to see the commands.\n"),
            (["--frobnicate"], "hostbook: unknown option '--frobnicate'\nRun 'hostbook --help' for usage.\n"),
            (["keys", "frobnicate"], "hostbook: unknown command 'frobnicate' for 'hostbook keys'\nRun 'hostbook keys --help' to see its commands.\n"),
            (["keys", "--frobnicate"], "hostbook: unknown option '--frobnicate' for 'hostbook keys'\nRun 'hostbook keys --help' to see its commands.\n"),
            (["show"], "hostbook: missing NAME for 'hostbook show'\nRun 'hostbook show --help' for usage.\n"),
            (["show", "a", "b"], "hostbook: unexpected argument 'b' for 'hostbook show'\nRun 'hostbook show --help' for usage.\n"),
            (["help", "frobnicate"], "hostbook: unknown command 'frobnicate'\nRun 'hostbook --help' to see the commands.\n"),
            (["help", "keys", "frobnicate"], "hostbook: unknown command 'frobnicate' for 'hostbook keys'\nRun 'hostbook keys --help' to see its commands.\n"),
            (["help", "list", "frobnicate"], "hostbook: 'hostbook list' has no subcommand 'frobnicate'\nRun 'hostbook help list' for its usage.\n"),
            ([], "hostbook: no command given\nRun 'hostbook --help' to see the commands.\n"),
        ]
        for (argv, stderr) in cases {
            XCTAssertThrowsError(try CommandLineParser(commands: CommandTable.all).parse(argv), "\(argv)") { error in
                guard let e = error as? UserFacingError else { return XCTFail("\(argv): \(error)") }
                XCTAssertEqual(e.exitCode, .usage, "\(argv)")
                XCTAssertEqual("hostbook: \(e.message)\n" + (e.hint.map { "\($0)\n" } ?? ""), stderr, "\(argv)")
            }
        }
    }

    // MARK: Passing arguments through (for `hostbook ssh HOST [SSH-ARGS...]`)

    static let passing = CommandSpec(
        ["ssh"], summary: "Connect", usage: "[--snippet NAME] HOST [SSH-ARGS...]",
        positionals: [.required("HOST", "The host")],
        options: [.value(.snippet, "NAME", "Run a snippet"), .flag(.printConfig, "Print the configuration")],
        passesArgumentsAfterFirstPositional: true, run: { _ in })

    private func parse(_ argv: [String]) throws -> (ParsedArguments, GlobalOptions) {
        guard case .run(_, let args, let globals) = try CommandLineParser(commands: [Self.passing] + CommandTable.all).parse(argv) else {
            XCTFail("\(argv) did not parse to a command")
            throw NSError(domain: "ArgumentParserTests", code: 1)
        }
        return (args, globals)
    }

    func testEverythingAfterTheFirstPositionalIsPassedThroughUnchanged() throws {
        let (a, g) = try parse(["--db", "d.db", "ssh", "--json", "--snippet", "up", "web", "-v", "--json", "--", "-p", "22", "--db", "x", "-h", "--help"])
        XCTAssertEqual(a.positionals, ["web"])
        XCTAssertEqual(a.value(.snippet), "up")
        XCTAssertEqual(a.trailing, ["-v", "--json", "--", "-p", "22", "--db", "x", "-h", "--help"])
        XCTAssertEqual(g.dbPath, "d.db")
        XCTAssertTrue(g.json, "--json before HOST is hostbook's")
        XCTAssertFalse(g.help)

        let (b, h) = try parse(["ssh", "--", "--odd-host", "--json"])
        XCTAssertEqual(b.positionals, ["--odd-host"])
        XCTAssertEqual(b.trailing, ["--json"])
        XCTAssertFalse(h.json)

        let (c, _) = try parse(["ssh", "web"])
        XCTAssertEqual(c.trailing, [])
        XCTAssertThrowsError(try parse(["ssh", "--print-config"])) { e in
            XCTAssertEqual((e as? ArgumentError)?.message, "missing HOST for 'hostbook ssh'")
            XCTAssertEqual((e as? ArgumentError)?.exitCode, .usage)
        }
        XCTAssertThrowsError(try parse(["ssh", "--bogus", "web", "-v"])) { e in
            XCTAssertEqual((e as? ArgumentError)?.message, "unknown option '--bogus' for 'hostbook ssh'")
        }
        guard case .help(let text) = try CommandLineParser(commands: [Self.passing]).parse(["ssh", "--help"]) else {
            return XCTFail("ssh --help before HOST is help")
        }
        XCTAssertTrue(text.contains("Usage: hostbook ssh [--snippet NAME] HOST [SSH-ARGS...]"), text)
        // Commands that do not pass arguments through still see flags after positionals.
        let (d, e) = try parse(["show", "web", "--json"])
        XCTAssertEqual(d.positionals, ["web"])
        XCTAssertEqual(d.trailing, [])
        XCTAssertTrue(e.json)
    }
}
