// What may name a key or a certificate authority, in-process: each unusable name is refused
// with its reason and the option the user gave it with.
import Workflows
import XCTest

final class KeyNameTests: XCTestCase {
    func testEachUnusableNameSaysWhy() {
        let table: [(String, KeysRefusal.NameProblem?)] = [
            ("laptop", nil), ("my key", nil), (String(repeating: "k", count: 64), nil), ("ключ", nil),
            ("", .empty), (String(repeating: "k", count: 65), .tooLong), (" laptop", .spaceOrDash), ("laptop ", .spaceOrDash),
            ("-laptop", .spaceOrDash), ("lap\ttop", .controlCharacter), ("lap\u{7f}top", .controlCharacter), ("lap\u{85}top", .controlCharacter),
        ]
        for (name, problem) in table { XCTAssertEqual(KeyName.problem(name), problem, name) }
    }

    func testTheRefusalNamesTheOptionAndACAIsHeldToTheSameRule() {
        do {
            try KeyName.validate("-x", option: "--rename")
            XCTFail("accepted")
        } catch {
            guard case .badKeyName("-x", .spaceOrDash, "--rename") = error else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try CAName.validate("team-ca"))
        do {
            try CAName.validate("")
            XCTFail("accepted")
        } catch {
            guard case .badAuthorityName("") = error else { return XCTFail("\(error)") }
        }
    }
}
