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
