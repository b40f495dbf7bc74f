// One ssh_config file split into directives, each with its line number. Knows nothing of
// Host blocks or Include: SSHConfigLoader gives those their meaning.

public struct SSHConfigDirective: Sendable, Equatable {
    public let line: SSHConfigLine
    /// The file the directive came from, as the caller named it (or as Include found it).
    public let file: String
    /// 1-based line number in `file`.
    public let lineNumber: Int

    public var keyword: String { line.keyword }
    public var arguments: [String] { line.arguments }
}

public struct SSHConfigDocument: Sendable {
    public let file: String
    public let directives: [SSHConfigDirective]
    /// How many lines the file has (blank and comment lines included).
    public let lineCount: Int

    /// Splits `bytes` (the content of `file`) into directives. Lines end at LF; a NUL byte
    /// ends its line, as it does for ssh's C strings.
    public init(file: String, bytes: [UInt8]) throws(SSHConfigError) {
        self.file = file
        var out: [SSHConfigDirective] = []
        var number = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            number += 1
            var end = start
            while end < bytes.endIndex, bytes[end] != SSHConfigLexer.lf { end += 1 }
            var lineEnd = start
            while lineEnd < end, bytes[lineEnd] != 0 { lineEnd += 1 }
            let split: SSHConfigLine?
            do {
                split = try SSHConfigLexer.split(bytes[start..<lineEnd])
            } catch {
                switch error {
                case .invalidQuotes:
                    throw SSHConfigError(.syntax, file: file, line: number, "invalid quotes")
                case .noArgument(let keyword):
                    throw SSHConfigError(.syntax, file: file, line: number, "no argument after keyword \"\(keyword)\"")
                }
            }
            if let split { out.append(SSHConfigDirective(line: split, file: file, lineNumber: number)) }
            start = end + 1
        }
        self.directives = out
        lineCount = number
    }
}
