// The command line, end to end with the real binary: a usage error is exit 2 with its
// stderr lines and writes nothing. The parser's logic (arity, global flags, every usage
// error's wording, the pass-through of `hostbook ssh HOST [SSH-ARGS...]`) and the same
// through Hostbook.main (`--`, help text, suggestions) are tested in-process:
// HostbookLogicTests/ArgumentParserTests and ArgumentParsingLogicTests.
import Foundation
@testable import hostbook
import XCTest

final class ArgumentParsingTests: XCTestCase {
    var hb: HostbookFixture!

    override func setUpWithError() throws { hb = try HostbookFixture() }

    // MARK: Errors, exactly

    func testUsageErrorsExactly() throws {
        // Every usage error's wording, in-process on the parser:
        // HostbookLogicTests/ArgumentParserTests.testUsageErrorsExactly. Here the binary's
        // exit code 2 and stderr lines for a few.
        let cases: [([String], String)] = [
            (["add", "web", "--hostname", "h", "--bogus"], "hostbook: unknown option '--bogus' for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["list", "--db="], "hostbook: --db needs a non-empty path\n"),
            ([], "hostbook: no command given\nRun 'hostbook --help' to see the commands.\n"),
        ]
        for (args, stderr) in cases {
            try hb.fails(args, status: 2, stderr: stderr)
        }
        XCTAssertEqual(hb.files(), [], "no usage error created a database")
    }
}
