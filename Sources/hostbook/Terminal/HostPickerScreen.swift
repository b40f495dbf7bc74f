// What the host picker draws, as text for a terminal of a given size: the filter prompt,
// a header, one row per host in view (NAME, USER@HOST:PORT, TAGS, laid out and cut to the
// width by the same Table code as `hostbook list`, every database string escaped by
// PrintableText there), the selected row marked with `>` (and in reverse video when colour
// is allowed), and a status line. Pure: the caller writes the result (RawTerminal).
import CommandLineKit
import KeyFormats
import Workflows

struct HostPickerScreen {
    static let prompt = "hostbook ssh> "
    static let help = "↑/↓ move · Enter connect · Esc leave"

    /// The hosts as a table: column widths are worked out once for every host (and again
    /// when the width changes), so columns do not jump about while filtering.
    private let table: Table
    private var widths: [Int] = []
    private var widthsFor = -1

    init(entries: [HostPicker.Entry]) {
        var table = Table(columns: [Table.column("NAME", minimum: 8), Table.column("USER@HOST:PORT", minimum: 14),
                                    Table.column("TAGS", minimum: 4)])
        for e in entries { table.add([e.name, e.target, e.tags.isEmpty ? "-" : e.tags.joined(separator: ",")]) }
        self.table = table
    }

    /// Rows of hosts a screen of `height` lines shows (prompt, header and status take three).
    static func listRows(height: Int) -> Int { max(1, height - 3) }

    /// The whole screen, drawn from the top-left corner, with the cursor left after the filter.
    mutating func render(_ picker: inout HostPicker, columns: Int, height: Int, color: Bool) -> String {
        // One column is kept free: writing the last column of a line can wrap on some terminals.
        let width = max(10, columns - 1)
        if widthsFor != width {
            widths = table.columnWidths(limit: width - 2)   // 2 for the selection marker
            widthsFor = width
        }
        var lines: [String] = []
        let filter = DisplayWidth.truncate(PrintableText.quoted(picker.filter), to: max(1, width - DisplayWidth.of(Self.prompt)))
        lines.append(Self.prompt + filter)
        let header = "  " + Table.line(table.headers, widths: widths)
        lines.append(color ? "\u{1B}[1m" + header + "\u{1B}[0m" : header)
        let shown = picker.window(rows: Self.listRows(height: height))
        for position in shown {
            let index = picker.matches[position]
            let selected = position == picker.selected
            let row = (selected ? "> " : "  ") + Table.line(table.row(index), widths: widths)
            if selected && color {
                lines.append("\u{1B}[7m" + row + String(repeating: " ", count: max(0, width - DisplayWidth.of(row))) + "\u{1B}[0m")
            } else {
                lines.append(row)
            }
        }
        if picker.matches.isEmpty { lines.append("  (no host matches)") }
        while lines.count < height - 1 { lines.append("") }
        let status = DisplayWidth.truncate("  \(picker.matches.count)/\(picker.entries.count)  " + Self.help, to: width)
        if height >= 4 { lines.append(color ? "\u{1B}[2m" + status + "\u{1B}[0m" : status) }

        // Hide the cursor while drawing, each line cleared to its end, then the rest of the
        // screen; the cursor goes back after the filter.
        var out = "\u{1B}[?25l\u{1B}[H"
        out += lines.prefix(max(1, height)).joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J"
        out += "\u{1B}[1;\(DisplayWidth.of(Self.prompt + filter) + 1)H\u{1B}[?25h"
        return out
    }
}
