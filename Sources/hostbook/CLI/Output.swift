// Writing to stdout/stderr, and aligned tables for human-readable lists.
#if canImport(Glibc)
import Glibc
#endif

enum Output {
    /// Writes all of `text` to `fd`, retrying short writes. A closed pipe ends quietly.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}

/// An aligned text table. Headers are bold on a colour terminal; otherwise plain text.
struct Table {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) { self.headers = headers }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render(color: Bool) -> String {
        var widths = headers.map { displayWidth($0) }
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], displayWidth(c)) } }
        var out = ""
        func line(_ cells: [String], bold: Bool) {
            var parts: [String] = []
            for (i, c) in cells.enumerated() {
                let last = i == cells.count - 1
                let padded = last ? c : c + String(repeating: " ", count: widths[i] - displayWidth(c))
                parts.append(padded)
            }
            let text = parts.joined(separator: "  ")
            out += bold && color ? "\u{1B}[1m\(text)\u{1B}[0m\n" : text + "\n"
        }
        line(headers, bold: true)
        for r in rows { line(r, bold: false) }
        return out
    }

    private func displayWidth(_ s: String) -> Int { s.count }
}
