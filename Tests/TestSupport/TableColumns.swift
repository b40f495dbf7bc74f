// Tables as a terminal shows them: the terminal columns a character takes, counted
// independently of hostbook, and the check that every row's cells start in the header's
// columns. Used by the table tests of the binary (on a terminal) and in-process (on a pipe).
import XCTest

public enum TableColumns {
    /// Terminal columns of the characters these tests use, counted independently of
    /// hostbook: CJK and the emoji take 2, a combining accent 0.
    public static func width(_ c: Character) -> Int {
        if c.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }   // emoji presentation asked for
        let v = c.unicodeScalars.first!.value
        if (0x1F1E6...0x1F1FF).contains(v) { return 2 }                             // a flag (regional indicator pair)
        if (0x3040...0x30FF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0xFF01...0xFF60).contains(v) { return 2 }
        if (0x1F300...0x1FAFF).contains(v) { return 2 }
        return 1
    }
    public static func width(_ s: Substring) -> Int { s.reduce(0) { $0 + width($1) } }

    /// The display column where `needle` starts in `line`, or nil.
    public static func column(of needle: String, in line: Substring) -> Int? {
        guard let r = line.range(of: needle) else { return nil }
        return width(line[..<r.lowerBound])
    }

    /// Each row's cells start where the header's do, in terminal columns.
    public static func assertAligned(_ text: String, headers: [String], width limit: Int?, file: StaticString = #filePath, line: UInt = #line) {
        let lines = text.split(separator: "\n")
        guard let header = lines.first else { return XCTFail("no table", file: file, line: line) }
        let starts = headers.map { column(of: $0, in: header) ?? -1 }
        for l in lines {
            if let limit { XCTAssertLessThanOrEqual(width(l), limit, "\(l)", file: file, line: line) }
            var col = 0
            var chars: [(Character, Int)] = []
            for c in l { chars.append((c, col)); col += width(c) }
            for s in starts.dropFirst() {
                // Two spaces end the cell before; the next cell starts exactly there.
                let before = chars.filter { $0.1 == s - 1 || $0.1 == s - 2 }.map(\.0)
                XCTAssertEqual(before, [" ", " "], "column \(s) in '\(l)'", file: file, line: line)
                XCTAssertTrue(chars.contains { $0.1 == s && $0.0 != " " }, "no cell at column \(s) in '\(l)'", file: file, line: line)
            }
        }
    }
}
