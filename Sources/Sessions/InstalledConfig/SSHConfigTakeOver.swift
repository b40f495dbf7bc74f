// Handing the user's own Host blocks for imported hosts over to the installed configuration
// (`import-ssh-config --take-over`): hostbook's Include comes first in ~/.ssh/config, but
// it never writes a host whose name a Host line of the user's names (UserSSHConfigHosts),
// so an imported host stays the user's block's until that block is gone. The take-over
// comments out, in the file's own text, each Host block all of whose names were imported,
// and `undo` puts the text back; what the file holds otherwise is never touched. Pure: the
// program reads and writes the files (a backup beside each one, Workflows' SSHConfigTakeOverFiles).
//
// - A block is its `Host` line and the lines after it up to its last directive before the
//   next `Host` or `Match` line (or the end of the file); blank and comment lines after
//   that last directive stay as they are. Each line of it gets `linePrefix` in front, its
//   line ending (LF or CR LF) kept, and one `marker` line, naming hostbook and the date,
//   goes before it, with the block's own line ending.
// - Only a block whose every pattern is a literal name that was imported is taken over.
//   A block that names an imported host beside a pattern, a negation or a name that was
//   not imported is left, and reported (`left`); so is one that holds an Include (the
//   included files may hold other hosts), and a Match block is never touched.
// - `undo` removes the marker lines and the prefix, nothing else: the original text back,
//   byte for byte, when nothing else changed (the program compares it with the backup).
import KeyFormats
public import SSHConfig

public enum SSHConfigTakeOver {
    /// The start of each line taken over.
    public static let linePrefix = "#hostbook# "
    /// The start of the line put before each block taken over.
    public static let markerStart = "# hostbook took over the Host block below on "

    /// The comment put before a block taken over on `date` (YYYY-MM-DD).
    public static func marker(date: String) -> String {
        markerStart + date + "; 'hostbook ssh-config --uninstall --restore' gives it back"
    }

    /// A Host block, by its Host line's number (1-based) and its patterns.
    public struct Block: Sendable, Equatable {
        public let line: Int
        public let patterns: [String]
    }

    /// A block that names an imported host but is left as it is, and why.
    public struct LeftBlock: Sendable, Equatable {
        public let line: Int
        public let patterns: [String]
        public let reason: String
    }

    public struct Plan: Sendable {
        /// The file's text with the blocks taken over (the input when `taken` is empty).
        public let text: [UInt8]
        public let taken: [Block]
        public let left: [LeftBlock]
    }

    /// The take-over of `bytes` (the text of `file`): every Host block whose names are all in
    /// `imported`. A syntax error of the file is thrown (ssh refuses the file too).
    public static func plan(file: String, bytes: [UInt8], imported: Set<String>, date: String) throws(SSHConfigError) -> Plan {
        let document = try SSHConfigDocument(file: file, bytes: bytes)
        var taken: [(block: Block, last: Int)] = []
        var left: [LeftBlock] = []
        let directives = document.directives
        var i = 0
        while i < directives.count {
            let start = directives[i]
            var j = i + 1
            while j < directives.count, directives[j].keyword != "host", directives[j].keyword != "match" { j += 1 }
            defer { i = j }
            guard start.keyword == "host" else { continue }
            let patterns = start.arguments
            guard patterns.contains(where: imported.contains) else { continue }
            let others = patterns.filter { !imported.contains($0) }
            if !others.isEmpty {
                let what = others.contains { !HostPatternMatch.isConcrete($0) } ? "it also holds a pattern or a negation" : "it also names a host that was not imported"
                left.append(LeftBlock(line: start.lineNumber, patterns: patterns,
                                      reason: "\(what) (\(others.joined(separator: " ")))"))
                continue
            }
            if directives[(i + 1)..<j].contains(where: { $0.keyword == "include" }) {
                left.append(LeftBlock(line: start.lineNumber, patterns: patterns, reason: "it holds an Include, whose files may define other hosts"))
                continue
            }
            taken.append((Block(line: start.lineNumber, patterns: patterns), directives[j - 1].lineNumber))
        }
        guard !taken.isEmpty else { return Plan(text: bytes, taken: [], left: left) }
        let lines = splitLines(bytes)
        var firstOf: [Int: Int] = [:]
        for t in taken { firstOf[t.block.line] = t.last }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + taken.count * 100)
        let prefix = Array(linePrefix.utf8)
        let markerLine = Array(marker(date: date).utf8)
        var number = 0
        var inBlockUntil = 0
        for line in lines {
            number += 1
            if let last = firstOf[number] {
                out += markerLine
                out += line.hasSuffix([0x0d, 0x0a]) ? [0x0d, 0x0a] : [0x0a]
                inBlockUntil = last
            }
            if number <= inBlockUntil { out += prefix }
            out += line
        }
        // A last line without a line break that was taken over gets none either.
        return Plan(text: out, taken: taken.map(\.block), left: left)
    }

    /// The text with every take-over undone: marker lines removed and the prefix taken off.
    public static func undo(_ bytes: [UInt8]) -> [UInt8] {
        let prefix = Array(linePrefix.utf8)
        let markerBytes = Array(markerStart.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for line in splitLines(bytes) {
            if line.starts(with: markerBytes) { continue }
            if line.starts(with: prefix) { out += line.dropFirst(prefix.count) } else { out += line }
        }
        return out
    }

    /// Whether `bytes` holds a block taken over.
    public static func holdsTakeOver(_ bytes: [UInt8]) -> Bool {
        let markerBytes = Array(markerStart.utf8)
        return splitLines(bytes).contains { $0.starts(with: markerBytes) }
    }

    /// The lines of `bytes`, each with its LF (the last one without, when the text does not end in one).
    static func splitLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex, bytes[end] != 0x0a { end += 1 }
            let stop = end < bytes.endIndex ? end + 1 : end
            lines.append(bytes[start..<stop])
            start = stop
        }
        return lines
    }
}

private extension ArraySlice<UInt8> {
    func hasSuffix(_ suffix: [UInt8]) -> Bool { count >= suffix.count && self.suffix(suffix.count).elementsEqual(suffix) }
}
