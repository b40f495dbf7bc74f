// The host picker's state and drawing without a terminal (Workflows' HostPicker and
// PickerKey, the program's HostPickerScreen): what each key sequence filters, selects and
// decides, how the window scrolls, how raw terminal bytes become keys, and that what is
// drawn fits the width and shows database text only escaped.
import CommandLineKit
import Foundation
@testable import hostbook
import TestSupport
import Workflows
import XCTest

final class HostPickerTests: XCTestCase {
    static let entries: [HostPicker.Entry] = [
        .init(name: "web1", user: "root", hostname: "10.0.0.1", port: 22, tags: ["prod"]),
        .init(name: "web2", user: "deploy", hostname: "10.0.0.2", port: 2222, tags: ["staging"]),
        .init(name: "db", user: nil, hostname: "DB.example.com", port: 5432, tags: ["prod", "Postgres"], aliases: ["Primary", "pg"]),
        .init(name: "v6", user: "me", hostname: "::1", port: 22, tags: []),
    ]

    func testTargetsAreSpelledAsSSHTakesThem() {
        XCTAssertEqual(Self.entries.map(\.target), ["root@10.0.0.1:22", "deploy@10.0.0.2:2222", "DB.example.com:5432", "me@[::1]:22"])
    }

    func testKeysFilterSelectAndDecide() {
        let cases: [(keys: [PickerKey], matches: [String], selected: String?, last: HostPicker.Outcome)] = [
            ([], ["web1", "web2", "db", "v6"], "web1", .stay),
            ([.text("WEB")], ["web1", "web2"], "web1", .stay),                 // case-insensitive, over the name
            ([.text("prod")], ["web1", "db"], "web1", .stay),                  // over the tags
            ([.text("postgres")], ["db"], "db", .stay),
            ([.text("primary")], ["db"], "db", .stay),                        // over the aliases
            ([.text("pg prod")], ["db"], "db", .stay),
            ([.text("2222")], ["web2"], "web2", .stay),                        // over user@hostname:port
            ([.text("deploy@")], ["web2"], "web2", .stay),
            ([.text("example.com:5432")], ["db"], "db", .stay),
            ([.text("prod web")], ["web1"], "web1", .stay),                    // every word must match
            ([.text("zzz")], [], nil, .stay),
            ([.text("zzz"), .enter], [], nil, .stay),                          // Enter on nothing stays
            ([.text("web"), .down, .enter], ["web1", "web2"], "web2", .choose("web2")),
            ([.down, .down, .down, .down, .down, .down], ["web1", "web2", "db", "v6"], "v6", .stay),   // stops at the end
            ([.up], ["web1", "web2", "db", "v6"], "web1", .stay),              // and at the top
            ([.down, .down, .up, .enter], ["web1", "web2", "db", "v6"], "web2", .choose("web2")),
            ([.last, .enter], ["web1", "web2", "db", "v6"], "v6", .choose("v6")),
            ([.pageDown, .first], ["web1", "web2", "db", "v6"], "web1", .stay),
            ([.down, .text("w")], ["web1", "web2"], "web1", .stay),           // a new filter selects its first match
            ([.text("webx"), .backspace], ["web1", "web2"], "web1", .stay),
            ([.text("prod web1"), .deleteWord], ["web1", "db"], "web1", .stay),
            ([.text("prod web1"), .clearFilter], ["web1", "web2", "db", "v6"], "web1", .stay),
            ([.backspace], ["web1", "web2", "db", "v6"], "web1", .stay),       // nothing to delete
            ([.text("\u{7}d\u{1B}b\u{202E}")], ["db"], "db", .stay),           // controls never enter the filter
            ([.text("web"), .escape], ["web1", "web2"], "web1", .leave),
            ([.down, .interrupt], ["web1", "web2", "db", "v6"], "web2", .leave),
        ]
        for (keys, matches, selected, last) in cases {
            var picker = HostPicker(entries: Self.entries)
            var outcome = HostPicker.Outcome.stay
            for k in keys { outcome = picker.press(k) }
            XCTAssertEqual(picker.matches.map { Self.entries[$0].name }, matches, "\(keys)")
            XCTAssertEqual(picker.selection?.name, selected, "\(keys)")
            XCTAssertEqual(outcome, last, "\(keys)")
        }
    }

    func testTheWindowScrollsToKeepTheSelectionInView() {
        let many = (0..<10).map { HostPicker.Entry(name: "h\($0)", user: nil, hostname: "h\($0)", port: 22, tags: []) }
        var picker = HostPicker(entries: many)
        XCTAssertEqual(picker.window(rows: 3), 0..<3)
        for _ in 0..<5 { _ = picker.press(.down) }
        XCTAssertEqual(picker.window(rows: 3), 3..<6)
        for _ in 0..<4 { _ = picker.press(.up) }
        XCTAssertEqual(picker.window(rows: 3), 1..<4)
        _ = picker.press(.pageDown, page: 3)
        XCTAssertEqual(picker.selection?.name, "h4")
        _ = picker.press(.last)
        XCTAssertEqual(picker.window(rows: 3), 7..<10)
        XCTAssertEqual(picker.window(rows: 20), 0..<10, "a taller window shows everything")
        _ = picker.press(.text("h1"))
        XCTAssertEqual(picker.window(rows: 3), 0..<1)
    }

    func testTerminalBytesBecomeKeys() {
        let cases: [(bytes: [UInt8], final: Bool, keys: [PickerKey], left: Int)] = [
            (Array("web".utf8), false, [.text("web")], 0),
            (Array("\u{1B}[A\u{1B}[B\u{1B}OA\u{1B}OB".utf8), false, [.up, .down, .up, .down], 0),
            (Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~".utf8), false, [.pageUp, .pageDown, .first, .last, .first, .last], 0),
            (Array("a\u{1B}[Bb\r".utf8), false, [.text("a"), .down, .text("b"), .enter], 0),
            ([0x7F, 0x08, 0x03, 0x10, 0x0E, 0x15, 0x17, 0x07, 0x0A], false,
             [.backspace, .backspace, .interrupt, .up, .down, .clearFilter, .deleteWord, .escape, .enter], 0),
            ([0x1B], false, [], 1),                        // maybe the start of an arrow key: wait
            ([0x1B], true, [.escape], 0),                  // nothing followed: the Esc key
            (Array("\u{1B}[".utf8), false, [], 2),
            ([0x1B, UInt8(ascii: "x")], false, [.escape, .text("x")], 0),
            (Array("\u{1B}[1;5C".utf8), false, [], 0),     // Ctrl-Right: nothing, and consumed whole
            ([0xC3], false, [], 1),                        // half of é
            ([0xC3, 0xA9, 0xE6, 0x97, 0xA5], false, [.text("é日")], 0),
            ([0xC3], true, [], 0),
            ([0x01, 0x1A, 0x09, UInt8(ascii: "z")], false, [.text("z")], 0),   // other controls do nothing
        ]
        for (bytes, final, keys, left) in cases {
            var buffer = bytes
            XCTAssertEqual(PickerKey.decode(&buffer, final: final), keys, "\(bytes)")
            XCTAssertEqual(buffer.count, left, "\(bytes)")
        }
    }

    func testTheScreenFitsTheWidthAndEscapesDatabaseText() {
        let entries = [
            HostPicker.Entry(name: "evil\u{1B}]0;owned\u{07}name", user: "root", hostname: "10.0.0.1", port: 22, tags: ["a\u{202E}b"]),
            HostPicker.Entry(name: "a-very-long-host-name-that-does-not-fit-anywhere", user: "someone-with-a-long-name",
                             hostname: "host.with.a.long.domain.example.com", port: 65535, tags: ["one", "two", "three", "four"]),
            HostPicker.Entry(name: "日本語のホスト名です", user: nil, hostname: "jp.example", port: 22, tags: ["🚀"]),
        ]
        for columns in [40, 60, 120] {
            for color in [false, true] {
                var picker = HostPicker(entries: entries)
                var screen = HostPickerScreen(entries: entries)
                let drawn = screen.render(&picker, columns: columns, height: 8, color: color)
                let lines = TerminalScreen.visibleLines(drawn)
                XCTAssertEqual(lines.count, 8, drawn)
                for line in lines {
                    XCTAssertLessThan(DisplayWidth.of(line), columns, "\(columns): \(line)")
                    XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }, "raw control drawn: \(line)")
                }
                XCTAssertTrue(lines[2].hasPrefix("> evil\\u{1"), lines[2])
                if columns == 120 {
                    XCTAssertEqual(lines[2].split(separator: " ", omittingEmptySubsequences: true),
                                   [">", "evil\\u{1b}]0;owned\\u{7}name", "root@10.0.0.1:22", "a\\u{202e}b"])
                }
                XCTAssertTrue(lines.contains { $0.contains("…") }, "long cells are cut: \(lines)")
                XCTAssertEqual(drawn.contains("\u{1B}[7m"), color, "reverse video only with colour")
                XCTAssertEqual(drawn.contains("\u{1B}[1m"), color, "bold only with colour")
                XCTAssertTrue(lines[7].contains("3/3"), lines[7])
            }
        }
        // The filter as typed is drawn escaped too, and nothing matching says so.
        var picker = HostPicker(entries: entries)
        var screen = HostPickerScreen(entries: entries)
        _ = picker.press(.text("nothing-like-this"))
        let lines = TerminalScreen.visibleLines(screen.render(&picker, columns: 80, height: 6, color: false))
        XCTAssertEqual(lines[0], "hostbook ssh> nothing-like-this")
        XCTAssertEqual(lines[2], "  (no host matches)")
        XCTAssertTrue(lines[5].hasPrefix("  0/3  "), lines[5])
    }
}
