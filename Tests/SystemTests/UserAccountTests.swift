// The local account's name comes from the password database; an id it does not know has none.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import System
import TestSupport
import XCTest

final class UserAccountTests: XCTestCase {
    func testTheNameOfThisUserAndOfAnUnknownId() throws {
        let name = try Tool.output("/usr/bin/id", ["-un"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(UserAccount.name(uid: getuid()), name)
        XCTAssertEqual(UserAccount.name(uid: 0), "root")
        XCTAssertNil(UserAccount.name(uid: 3_999_999_999))
    }
}
