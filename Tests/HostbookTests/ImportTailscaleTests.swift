// `hostbook import-tailscale` on a terminal, with the real binary: the interactive choice.
// Everything else of import-tailscale runs in-process:
// HostbookLogicTests/ImportTailscaleLogicTests.
import Foundation
import XCTest

final class ImportTailscaleTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func own(_ name: String) -> String { Self.packageRoot.appendingPathComponent("testdata/tailscale/\(name)").path }

    var tmp: TemporaryDirectory!
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws { tmp = try TemporaryDirectory() }
    override func tearDown() { tmp = nil }

    /// On a terminal (a pseudo-terminal from script(1)), a numbered list and a question.
    func testInteractiveChoiceOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("script(1) is not installed") }
        let command = "'\(HostbookProcess.binaryURL.path)' --db '\(db)' import-tailscale '\(own("status-four-peers.json"))'"
        let p = Process()
        try TestAccount.prepare(p, ["/usr/bin/script", "-qec", command, "/dev/null"], environment: [:], removing: [],
                                account: TestAccount.shared, terminal: nil)
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data("1,3\n".utf8))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("""
            Tailscale devices:
              1) alices-macbook-air  (alices-macbook-air.tail4f21c8.ts.net, macOS, offline)
              2) db-prod-1  (db-prod-1.tail4f21c8.ts.net, linux, online)
              3) web01  (web01.tail4f21c8.ts.net, linux, online)
            Import which? Numbers such as 1,3-5, or 'all' (empty for none): 
            """), text)
        XCTAssertTrue(text.contains("2 added, 0 updated, 0 unchanged, 0 skipped; 9 host-key entries trusted."), text)
        XCTAssertEqual(try sqlite("SELECT name FROM hosts ORDER BY name"), "alices-macbook-air\nweb01\n")
    }

    // MARK: Helpers

    /// Reads the database with the sqlite3 tool (skips when it is not installed).
    func sqlite(_ sql: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
