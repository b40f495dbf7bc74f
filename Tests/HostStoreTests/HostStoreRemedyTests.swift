// A refusal whose fix is a hostbook command carries that fix as data (HostStoreError.Remedy)
// with the raw names, not words: the executable words it. Checked against a real database.
@testable import HostStore
import XCTest

final class HostStoreRemedyTests: DatabaseTestCase {
    private func remedy(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> HostStoreError.Remedy? {
        do {
            _ = try body()
            XCTFail("not refused", file: file, line: line)
            return nil
        } catch {
            let e = error as? HostStoreError
            XCTAssertNotNil(e, "\(error)", file: file, line: line)
            XCTAssertNil(e?.advice, "a remedy comes without worded advice", file: file, line: line)
            return e?.remedy
        }
    }

    func testHostRefusalsCarryTheNamesOfTheirFix() throws {
        try db.addHost(NewHost(name: "Web", hostname: "a.example"))
        XCTAssertEqual(remedy { try self.db.addHost(NewHost(name: "WEB", hostname: "b.example")) }, .renameOrEditHost(existing: "Web"))
        XCTAssertEqual(remedy { try self.db.addHost(NewHost(name: "app", hostname: "c.example", jump: "gone")) }, .addJumpHost(name: "gone"))
        XCTAssertEqual(remedy { try self.db.addHost(NewHost(name: "app", hostname: "c.example", key: "nokey")) }, .importKey(name: "nokey"))
        try db.addHost(NewHost(name: "inner", hostname: "d.example", jump: "Web"))
        XCTAssertEqual(remedy { try self.db.removeHost("Web") }, .dropJump(host: "inner", nothingWritten: false))
        guard case .listHosts = remedy({ try self.db.removeHost("nowhere") }) else { return XCTFail("no listHosts remedy") }
    }

    func testSnippetRefusalsCarryTheNamesOfTheirFix() throws {
        try db.addSnippet(name: "disk", command: "df -h", description: nil)
        XCTAssertEqual(remedy { try self.db.addSnippet(name: "DISK", command: "du", description: nil) }, .renameOrEditSnippet(existing: "disk"))
    }
}
