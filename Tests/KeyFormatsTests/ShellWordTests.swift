// ShellWord, the one rule for writing a value as one shell word: whatever the value holds,
// /bin/sh reads the word back as exactly that value, and as one argument.
import XCTest
import KeyFormats
import TestSupport

final class ShellWordTests: XCTestCase {
    static let values = [
        "plain", "/run/user/1000/hostbook/agent.sock", "", "a b", "it's", "'", "''", "a'b'c",
        "$HOME", "${x}", "`id`", "$(id)", "a\nb", "tab\there", "*", "?", "[a]", "~", "~root", "=ls",
        "a=b", "-n", "--", "back\\slash", "\"double\"", "semi;colon", "a|b", "a&b", "<in", "#hash",
        "!bang", "{a,b}", "é日本😀", "x\u{7f}\u{1b}[2J",
    ]

    func testEveryValueRoundTripsThroughShAsOneWord() throws {
        for value in Self.values {
            let word = ShellWord.quoted(value)
            // Each argument printed between brackets: one argument, the value unchanged.
            let r = try Tool.run("/bin/sh", ["-c", "printf '[%s]' " + word])
            XCTAssertEqual(r.status, 0, "\(value.debugDescription): \(r.stderr)")
            XCTAssertEqual(r.stdout, "[" + value + "]", "\(value.debugDescription) written as \(word)")
        }
    }

    func testAnAssignmentKeepsTheValue() throws {
        for value in Self.values {
            let r = try Tool.run("/bin/sh", ["-c", "V=" + ShellWord.quoted(value) + "; printf '[%s]' \"$V\""])
            XCTAssertEqual(r.stdout, "[" + value + "]", value.debugDescription)
        }
    }

    func testPlainWordsStayBareAndOthersAreSingleQuoted() {
        XCTAssertEqual(ShellWord.quoted("/tmp/hostbook-1000/agent.sock"), "/tmp/hostbook-1000/agent.sock")
        XCTAssertEqual(ShellWord.quoted("user@host:22,x+y%z"), "user@host:22,x+y%z")
        XCTAssertEqual(ShellWord.quoted(""), "''")
        XCTAssertEqual(ShellWord.quoted("unix:path=/tmp/x"), "'unix:path=/tmp/x'")
        XCTAssertEqual(ShellWord.quoted("it's"), "'it'\\''s'")
        XCTAssertEqual(ShellWord.quoted("~"), "'~'")
    }
}
