// End to end: invalid UTF-8 in the argv bytes of `hostbook snippets add`, with the real
// binary. The rest of the snippet commands run in-process:
// HostbookLogicTests/SnippetCommandLogicTests and SnippetRulesWordingTests.
import Foundation
import XCTest

final class SnippetCommandTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try HostbookFixture() }

    /// The stdin half: HostbookLogicTests/SnippetCommandLogicTests.testInvalidUTF8IsRefusedFromStdin.
    func testInvalidUTF8IsRefusedFromArgv() throws {
        // argv bytes: passed through a shell so the invalid byte reaches hostbook unrepaired.
        let sh = Process()
        try TestAccount.prepare(sh, ["/bin/sh", "-c", "exec \"$0\" snippets add bad --command \"$(printf 'ls \\355\\240\\200')\"",
                                     HostbookProcess.binaryURL.path], environment: hb.environment, removing: [], account: hb.account, terminal: nil)
        let err = Pipe()
        sh.standardError = err
        try sh.run()
        sh.waitUntilExit()
        XCTAssertEqual(sh.terminationStatus, 5)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                       "hostbook: the command is not valid UTF-8 (first bad byte at offset 3)\n")
        XCTAssertEqual(try hb.run("snippets", "list", "--json").stdout, "[]\n")
    }
}
