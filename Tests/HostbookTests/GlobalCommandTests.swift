// The program's global behaviour on the binary: version and help. Unknown commands and
// flags, and every command's help text, are checked in-process on the parser:
// HostbookLogicTests/ArgumentParserTests and HostbookLogicTests/HelpTextTests; the
// binary's exit 2 for them is in ArgumentParsingTests.testUsageErrorsExactly.
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
}
