// Aligned tables for human-readable lists, fitted to the terminal's width.
import KeyFormats

/// An aligned text table. Every cell is untrusted text and is escaped (PrintableText.quoted)
/// before it is measured. Widths are terminal columns (DisplayWidth), so CJK and emoji line
/// up. Given a width, the table fits it: the widest shrinkable columns give up columns first,
/// down to their minimum, and cells that no longer fit end in `…`. Headers are bold on a
/// colour terminal; otherwise plain text.
public struct Table {
    public struct Column {
        public let header: String
        /// Whether this column may be cut to fit the width (names, hostnames, comments).
        public let shrinks: Bool
        /// The fewest columns a shrinking column keeps (its header always fits).
        public let minimum: Int
    }

    public var columns: [Column]
    /// Every escaped cell's UTF-8, one after another (no String or array per row: `list`
    /// with 10,000 hosts makes 80,000 cells).
    private var text: [UInt8] = []
    /// Each cell's end in `text` (it starts where the one before ends) and its width
    /// (DisplayWidth), measured once when it is added.
    private var cellEnds: [Int] = []
    private var cellWidths: [Int] = []
    /// Each row's end in `cellEnds`.
    private var rowEnds: [Int] = []

    public static func column(_ header: String, shrinks: Bool = true, minimum: Int = 6) -> Column {
        Column(header: header, shrinks: shrinks, minimum: minimum)
    }

    /// A table whose columns all shrink, down to their header or 6 columns.
    public init(_ headers: [String]) { self.columns = headers.map { Column(header: $0, shrinks: true, minimum: 6) } }

    public init(columns: [Column]) { self.columns = columns }

    public var headers: [String] { columns.map(\.header) }

    public var rowCount: Int { rowEnds.count }

    /// Row `i`'s escaped cells.
    public func row(_ i: Int) -> [String] {
        cellRange(row: i).map { String(decoding: cellBytes($0), as: UTF8.self) }
    }

    public mutating func add(_ row: [String]) {
        for c in row { cell(c) }
        endRow()
    }

    /// One cell of the row being added: escaped, then measured.
    public mutating func cell(_ value: String) {
        let escaped = PrintableText.quoted(value)
        text.append(contentsOf: escaped.utf8)
        cellEnds.append(text.count)
        cellWidths.append(DisplayWidth.of(escaped))
    }

    /// A cell given as UTF-8 (nil: `null`): the same as `cell(String(decoding:as:))`, and
    /// printable ASCII, nearly every cell, is copied and measured byte for byte.
    public mutating func cell(utf8 bytes: UnsafeBufferPointer<UInt8>?, null: String) {
        guard let bytes else { cell(null); return }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { cell(String(decoding: bytes, as: UTF8.self)); return }
        text.append(contentsOf: bytes)
        cellEnds.append(text.count)
        cellWidths.append(bytes.count)
    }

    /// Ends the row whose cells were added since the last one.
    public mutating func endRow() { rowEnds.append(cellEnds.count) }

    private func cellRange(row i: Int) -> Range<Int> { (i == 0 ? 0 : rowEnds[i - 1])..<rowEnds[i] }

    private func cellBytes(_ c: Int) -> ArraySlice<UInt8> { text[(c == 0 ? 0 : cellEnds[c - 1])..<cellEnds[c]] }

    /// `width` nil: every cell whole (a pipe, or --wide). The rendering is printed raw: its
    /// cells were escaped when added, its headers and bold codes are the program's own.
    public func render(color: Bool, width: Int? = nil) -> TerminalText {
        var out: [UInt8] = []
        render(color: color, width: width) { out += $0 }
        return .raw(String(decoding: out, as: UTF8.self))
    }

    /// `render`, written to `fd` as it goes (64 KiB at a time) instead of built whole.
    public func write(color: Bool, width: Int? = nil, to fd: Int32) {
        var failed = false
        render(color: color, width: width, chunk: 1 << 16) { chunk in
            if !failed { failed = !Output.write(bytes: chunk, to: fd) }
        }
    }

    /// The rendering, handed to `sink` in pieces of at least `chunk` bytes (the last may be
    /// shorter).
    private func render(color: Bool, width: Int?, chunk: Int = .max, _ sink: ([UInt8]) -> Void) {
        let widths = columnWidths(limit: width)
        var out: [UInt8] = []
        out.reserveCapacity(min(chunk, (widths.reduce(0, +) + 2 * widths.count + 1) * (rowCount + 1)) + 4096)
        if color { out += [0x1B] + Array("[1m".utf8) }
        let headers = headers
        let headerWidths = headers.map(DisplayWidth.of)
        Self.append(count: headers.count, widths: widths, to: &out) { i in (Array(headers[i].utf8)[...], headerWidths[i], headers[i]) }
        if color { out += [0x1B] + Array("[0m".utf8) }
        out.append(0x0A)
        for r in 0..<rowCount {
            let cells = cellRange(row: r)
            Self.append(count: cells.count, widths: widths, to: &out) { i in
                let c = cells.lowerBound + i
                let bytes = cellBytes(c)
                return (bytes, cellWidths[c], nil)
            }
            out.append(0x0A)
            if out.count >= chunk {
                sink(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if !out.isEmpty || chunk == .max { sink(out) }
    }

    /// One row laid out in `widths` (from `columnWidths`): each cell cut to its column with
    /// `…`, padded to line up, two spaces between columns, no trailing padding. Cells are
    /// used as given (`add` has escaped them).
    public static func line(_ cells: [String], widths: [Int]) -> String {
        var out: [UInt8] = []
        append(count: cells.count, widths: widths, to: &out) { i in (Array(cells[i].utf8)[...], DisplayWidth.of(cells[i]), cells[i]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `line` into bytes: `cell(i)` gives cell i's bytes, its width, and its text when at
    /// hand (else it is decoded from the bytes when the cell must be cut).
    private static func append(count cells: Int, widths: [Int], to out: inout [UInt8],
                               _ cell: (Int) -> (bytes: ArraySlice<UInt8>, width: Int, text: String?)) {
        let count = min(cells, widths.count)
        for i in 0..<count {
            if i > 0 { out.append(0x20); out.append(0x20) }
            let (bytes, width, text) = cell(i)
            var used = width
            if width > widths[i] {
                let cut = DisplayWidth.truncate(text ?? String(decoding: bytes, as: UTF8.self), width: width, to: widths[i])
                used = DisplayWidth.of(cut)
                out.append(contentsOf: cut.utf8)
            } else {
                out.append(contentsOf: bytes)
            }
            if i != count - 1, widths[i] > used { out.append(contentsOf: repeatElement(0x20, count: widths[i] - used)) }
        }
    }

    /// Each column's width: its widest cell, then, while the row is wider than `limit`, the
    /// widest column that may still shrink loses one column at a time.
    public func columnWidths(limit: Int?) -> [Int] {
        var widths = columns.map { DisplayWidth.of($0.header) }
        for r in 0..<rowCount {
            let cells = cellRange(row: r)
            for i in 0..<min(cells.count, widths.count) { widths[i] = max(widths[i], cellWidths[cells.lowerBound + i]) }
        }
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
