// The answers an approval question takes (ApprovalChoices), as `agent approve` and the
// per-session agent of `hostbook ssh` ask it: `a` only with a grant, and what a bad answer
// is told.
@testable import hostbook
import Sessions
import XCTest

final class ApprovalChoicesTests: XCTestCase {
    func testAnswersAndWhatABadAnswerIsTold() {
        let granting = ApprovalChoices(grant: "10m")
        let once = ApprovalChoices(grant: nil)
        XCTAssertEqual(granting.question.text, "Allow? [y]es once, [a]llow for 10m, [n]o: ")
        XCTAssertEqual(once.question.text, "Allow? [y]es, [n]o: ")
        XCTAssertEqual(granting.badAnswer.text, "answer y, a or n")
        XCTAssertEqual(once.badAnswer.text, "answer y or n")
        for (line, answer) in [("y", ApprovalAnswer.allowOnce), (" YES ", .allowOnce), ("n", .deny), ("No", .deny), ("a", .allowForGrant)] {
            XCTAssertEqual(granting.answer(line), answer, line)
        }
        XCTAssertNil(once.answer("a"), "no grant, no a")
        for bad in ["", "maybe", "yy", "allow"] { XCTAssertNil(granting.answer(bad), bad) }
    }
}
