// The warning counter: the first `limit` warnings printed, the rest counted in one line.
import CommandLineKit
import TestSupport
import XCTest

final class WarningSinkTests: XCTestCase {
    func testTheRestAreCountedInOneLine() {
        var lines: [String] = []
        let sink = WarningSink(warn: { lines.append($0.text) }, one: "line skipped", many: "lines skipped", limit: 3)
        for i in 1...1_234 { sink.warn("bad line \(i)") }
        sink.finish()
        XCTAssertEqual(lines, ["bad line 1", "bad line 2", "bad line 3", "... and 1,231 more lines skipped"])
        XCTAssertEqual(sink.count, 1_234)

        lines = []
        let one = WarningSink(warn: { lines.append($0.text) }, one: "warning", many: "warnings", limit: 1)
        let fromOutside = "a\u{1B}[2J"
        one.warn("\(fromOutside)")
        one.warn("b")
        one.finish()
        XCTAssertEqual(lines, [#"a\u{1b}[2J"#, "... and 1 more warning"])
    }
}
