// Options are declared and read by OptionName (a misspelled name does not build), and
// ParsedArguments reads only the options the running command declares. These tests hold the
// list of names to the command table: every name is an option of some command (or a global
// one), and the table declares no option twice for a command.
import CommandLineKit
import XCTest
@testable import hostbook

final class OptionNameTests: XCTestCase {
    func testEveryOptionNameIsDeclaredInTheCommandTable() {
        var declared = Set(CommandLineParser.globalOptions.map(\.name))
        for c in CommandTable.all { declared.formUnion(c.declaration.options.map(\.name)) }
        let unused = OptionName.allCases.map(\.rawValue).filter { !declared.contains($0) }
        XCTAssertEqual(unused, [], "option names no command declares")
    }

    func testNoCommandDeclaresAnOptionTwice() {
        for c in CommandTable.all {
            let names = c.declaration.options.map(\.name)
            XCTAssertEqual(names.count, Set(names).count, c.commandLine)
            XCTAssertTrue(Set(names).isDisjoint(with: CommandLineParser.globalOptions.map(\.name)), c.commandLine)
        }
    }

    func testTheParserRecordsWhichOptionsTheCommandDeclares() throws {
        guard case .run(let spec, let args, _) = try CommandLineParser(commands: CommandTable.all).parse(["add", "web", "--hostname", "example.org", "--port", "2222"]) else {
            return XCTFail("did not parse to a command")
        }
        XCTAssertEqual(args.declared, Set(spec.declaration.options.map(\.name)))
        XCTAssertEqual(try args.int(.port, in: 1...65535), 2222)
        XCTAssertEqual(args.value(.hostname), "example.org")
        XCTAssertNil(args.value(.user))
    }
}
