// The local account's name comes from the password database; an id it does not know has none.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import System
import XCTest

final class UserAccountTests: XCTestCase {
    func testTheNameOfThisUserAndOfAnUnknownId() throws {
        let id = Process()
        id.executableURL = URL(fileURLWithPath: "/usr/bin/id")
        id.arguments = ["-un"]
        let out = Pipe()
        id.standardOutput = out
        try id.run()
        id.waitUntilExit()
        let name = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(UserAccount.name(uid: getuid()), name)
        XCTAssertEqual(UserAccount.name(uid: 0), "root")
        XCTAssertNil(UserAccount.name(uid: 3_999_999_999))
    }
}
