// git failing on a bundle's repository: what it could not do, its exit status and what it
// said on stderr, as lines (split at line feeds, a carriage return before one dropped: ssh
// ends its lines with CR LF), at most `maximumLines` of them. The program prints each line
// escaped (docs/command-line.md, "bundle").

public struct BundleGitFailure: Error, Sendable {
    /// What git could not do ("clone URL into FOLDER", "fetch into FOLDER", ...).
    public let what: String
    public let status: Int32
    /// git's stderr, line by line, empty lines left out.
    public let lines: [String]

    public static let maximumLines = 20

    public init(what: String, status: Int32, stderr: [UInt8]) {
        self.what = what
        self.status = status
        var lines: [String] = []
        for raw in stderr.split(separator: 0x0a, omittingEmptySubsequences: true) {
            var line = raw[...]
            while line.last == 0x0d { line = line.dropLast() }
            if line.isEmpty { continue }
            lines.append(String(decoding: line, as: UTF8.self))
            if lines.count == Self.maximumLines { break }
        }
        self.lines = lines
    }
}
