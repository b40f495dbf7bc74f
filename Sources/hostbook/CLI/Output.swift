// Writing to stdout/stderr, and aligned tables for human-readable lists.
#if canImport(Glibc)
import Glibc
#endif
import System
import HostStore
import KeyFormats

enum Output {
    /// Writes all of `text` to `fd`, retrying short writes. A closed pipe ends quietly;
    /// the result says whether everything was written (errno tells why not). The text is
    /// TerminalText: what came from outside was escaped when it was put into it.
    @discardableResult
    static func write(_ text: TerminalText, to fd: Int32) -> Bool {
        (try? FileDescriptor(fd).writeAll(Array(text.text.utf8))) != nil
    }
}

/// An aligned text table. Every cell is untrusted text and is escaped (PrintableText.quoted)
/// before it is measured. Widths are terminal columns (DisplayWidth), so CJK and emoji line
/// up. Given a width, the table fits it: the widest shrinkable columns give up columns first,
/// down to their minimum, and cells that no longer fit end in `…`. Headers are bold on a
/// colour terminal; otherwise plain text.
struct Table {
    struct Column {
        let header: String
        /// Whether this column may be cut to fit the width (names, hostnames, comments).
        let shrinks: Bool
        /// The fewest columns a shrinking column keeps (its header always fits).
        let minimum: Int
    }

    var columns: [Column]
    var rows: [[String]] = []

    /// `--wide` on the commands that print a table.
    static let wideOption = OptionSpec.flag("wide", "Show every column in full, however wide the terminal")

    static func column(_ header: String, shrinks: Bool = true, minimum: Int = 6) -> Column {
        Column(header: header, shrinks: shrinks, minimum: minimum)
    }

    /// A table whose columns all shrink, down to their header or 6 columns.
    init(_ headers: [String]) { self.columns = headers.map { Column(header: $0, shrinks: true, minimum: 6) } }

    init(columns: [Column]) { self.columns = columns }

    var headers: [String] { columns.map(\.header) }

    mutating func add(_ row: [String]) { rows.append(row.map(PrintableText.quoted)) }

    /// `width` nil: every cell whole (a pipe, or --wide). The rendering is printed raw: its
    /// cells were escaped by `add`, its headers and bold codes are hostbook's own.
    func render(color: Bool, width: Int? = nil) -> TerminalText {
        let widths = columnWidths(limit: width)
        let header = Self.line(headers, widths: widths)
        var out = color ? "\u{1B}[1m\(header)\u{1B}[0m\n" : header + "\n"
        for r in rows { out += Self.line(r, widths: widths) + "\n" }
        return .raw(out)
    }

    /// One row laid out in `widths` (from `columnWidths`): each cell cut to its column with
    /// `…`, padded to line up, two spaces between columns, no trailing padding. Cells are
    /// used as given (`add` has escaped them).
    static func line(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (i, c) in cells.enumerated() where i < widths.count {
            let cell = DisplayWidth.truncate(c, to: widths[i])
            let last = i == min(cells.count, widths.count) - 1
            parts.append(last ? cell : cell + String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(cell))))
        }
        return parts.joined(separator: "  ")
    }

    /// Each column's width: its widest cell, then, while the row is wider than `limit`, the
    /// widest column that may still shrink loses one column at a time.
    func columnWidths(limit: Int?) -> [Int] {
        var widths = columns.map { DisplayWidth.of($0.header) }
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(c)) } }
        guard let limit else { return widths }
        let floor = columns.map { max(DisplayWidth.of($0.header), $0.minimum) }
        var excess = widths.reduce(0, +) + 2 * max(0, widths.count - 1) - limit
        while excess > 0 {
            var pick: Int?
            for i in widths.indices where columns[i].shrinks && widths[i] > floor[i] {
                if pick == nil || widths[i] > widths[pick!] { pick = i }
            }
            guard let i = pick else { break }   // everything is at its minimum: the row stays wider
            widths[i] -= 1
            excess -= 1
        }
        return widths
    }
}
