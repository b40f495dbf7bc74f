// CommandLineKit's parser over a table that is not hostbook's: what each command line
// parses to, and each mistake as data (ArgumentError) with what the program needs to word it.
import CommandLineKit
import TestSupport
import XCTest

final class ArgumentParserTests: XCTestCase {
    private func run(_ argv: [String]) throws -> (Int, ParsedArguments<ToyOption>, ParsedArguments<ToyOption>) {
        guard case .run(let index, let args, let globals) = try ToyProgram.parser.parse(argv) else {
            XCTFail("\(argv) is not a command")
            throw ArgumentError.noCommand
        }
        return (index, args, globals)
    }

    private func mistake(_ argv: [String]) -> ArgumentError? {
        do { _ = try ToyProgram.parser.parse(argv) } catch { return error }
        return nil
    }

    func testCommandsOptionsAndGlobalsWhereverAFlagMayStand() throws {
        let (i, a, g) = try run(["--config", "c", "add", "web", "--port=22", "--tag", "x", "--tag", "-h"])
        XCTAssertEqual(i, 0)
        XCTAssertEqual(a.positionals, ["web"])
        XCTAssertEqual(try a.int(.port, in: 1...65535), 22)
        XCTAssertEqual(a.values(.tag), ["x", "-h"], "a value option takes the next word whatever it looks like")
        XCTAssertEqual(g.value(.config), "c")
        XCTAssertFalse(g.flag(.help))
        let (j, b, _) = try run(["keys", "list", "--wide"])
        XCTAssertEqual(j, 1)
        XCTAssertTrue(b.flag(.wide))
        XCTAssertEqual(b.command, ["keys", "list"])
        let (k, c, h) = try run(["run", "--quiet", "box", "--quiet", "--", "-x", "--config", "y"])
        XCTAssertEqual(k, 3)
        XCTAssertTrue(c.flag(.quiet))
        XCTAssertEqual(c.trailing, ["--quiet", "--", "-x", "--config", "y"], "after HOST every word is passed on")
        XCTAssertNil(h.value(.config))
    }

    func testEachMistakeIsDataWithTheNearestSpelling() {
        XCTAssertEqual(mistake(["add", "web", "--prot", "2"]), .unknownOption(option: "--prot", place: .command(["add"]), suggestion: "--port"))
        XCTAssertEqual(mistake(["--bogus"]), .unknownOption(option: "--bogus", place: .program, suggestion: nil))
        XCTAssertEqual(mistake(["kyes"]), .unknownCommand(word: "kyes", after: [], suggestion: ["keys"]))
        XCTAssertEqual(mistake(["keys", "lst"]), .unknownCommand(word: "lst", after: ["keys"], suggestion: ["keys", "list"]))
        XCTAssertEqual(mistake(["add", "a", "--port", "1", "--port", "2"]), .givenTwice(option: "--port", place: .command(["add"])))
        XCTAssertEqual(mistake(["add", "a", "--port"]), .missingValue(option: "--port", valueName: "N", place: .command(["add"])))
        XCTAssertEqual(mistake(["add", "a", "--quiet=yes"]), .takesNoValue(option: "--quiet", place: .command(["add"])))
        XCTAssertEqual(mistake(["add"]), .missingPositional(name: "NAME", command: ["add"]))
        XCTAssertEqual(mistake(["add", "a", "b"]), .unexpectedArgument("b", command: ["add"]))
        XCTAssertEqual(mistake([]), .noCommand)
        XCTAssertEqual(mistake(["help", "add", "more"]), .noSubcommand(word: "more", command: ["add"]))
        // An empty value of a nonEmpty option is refused at once, before a later mistake.
        XCTAssertEqual(mistake(["--config", "", "nothing"]), .emptyValue(option: "config", valueName: "PATH"))
    }

    func testTypedReadsFailWithTheOption() throws {
        let (_, a, _) = try run(["add", "web", "--port", "99999", "--quiet", "--tag", "t"])
        XCTAssertThrowsError(try a.int(.port, in: 1...65535)) { error in
            XCTAssertEqual(error as? ArgumentError, .notAWholeNumber(option: "port", range: 1...65535, given: "99999"))
        }
        XCTAssertThrowsError(try a.exclusive(.quiet, .tag)) { error in
            XCTAssertEqual(error as? ArgumentError, .conflicting(options: ["quiet", "tag"], command: ["add"]))
        }
    }

    func testHelpForTheProgramAGroupAndACommand() throws {
        guard case .help(let program) = try ToyProgram.parser.parse(["--help"]),
              case .help(let group) = try ToyProgram.parser.parse(["keys"]),
              case .help(let command) = try ToyProgram.parser.parse(["help", "add"]),
              case .version = try ToyProgram.parser.parse(["--version"]) else { return XCTFail("not help") }
        XCTAssertTrue(program.hasPrefix("tool — a toy.\n\nCommands:\n  add "), program)
        XCTAssertTrue(program.contains("\n  keys                The keys\n"), program)
        XCTAssertTrue(program.contains("Run 'tool <command> --help' or 'tool help <command>'"), program)
        XCTAssertEqual(group, """
            The keys

            Usage: tool keys <command> [options]

            Commands:
              list          List keys
              remove        Remove a key

            Run 'tool keys <command> --help' for a command's options.

            """)
        XCTAssertTrue(command.hasPrefix("Add a host\n\nUsage: tool add NAME [--port N] [--tag T]... [--quiet]\n\nAdds NAME.\n"), command)
        guard case .help(let same) = try ToyProgram.parser.parse(["add", "--help"]) else { return XCTFail("not help") }
        XCTAssertEqual(same, command)
    }
}
