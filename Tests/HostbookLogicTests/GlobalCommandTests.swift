// The program's global behaviour, in-process (InProcessCommand runs Hostbook.main): version
// and help. Moved from HostbookTests/GlobalCommandTests. Unknown commands and
// flags, and every command's help text, are checked in-process on the parser:
// HostbookLogicTests/ArgumentParserTests and HostbookLogicTests/HelpTextTests; the
// binary's exit 2 for them is in HostbookTests/ArgumentParsingTests.testUsageErrorsExactly.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class GlobalCommandTests: XCTestCase {
    func testVersion() throws {
        let r = try InProcessCommand().run(["--version"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "hostbook 0.1.0\n")
        XCTAssertEqual(r.stderr, "")
    }

    func testHelpListsUsage() throws {
        let r = try InProcessCommand().run(["--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Usage: hostbook <command> [options]"))
    }
}
