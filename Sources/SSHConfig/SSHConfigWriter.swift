// Writes ssh_config text: `Host` blocks of `Keyword value` lines, each value quoted by
// ssh_config's lexical rules (docs/formats.md, "ssh_config text") so that ssh reads back
// exactly the words given. What ssh_config cannot express safely is refused, never
// mangled: a double quote, a control character or a line break in a value, an empty
// value, and a host alias that is not one literal name (pattern characters, `!`, spaces).
// Pure: the caller decides where the text goes.

/// Why a value or alias cannot be written.
public struct SSHConfigWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let keyword: String
    public let reason: String

    public init(keyword: String, reason: String) {
        self.keyword = keyword
        self.reason = reason
    }

    public var description: String { "\(keyword): \(reason)" }
}

/// Settings written once and appended to many blocks (the lines every host's block shares):
/// made by `SSHConfigWriter.lines`, so every value went through the writer's checks.
public struct SSHConfigLines: Sendable, Equatable {
    /// The lines as they stand inside a block (indented), and outside one.
    fileprivate let indented: String
    fileprivate let plain: String

    /// The lines as written outside a Host block.
    public var text: String { plain }
    /// The lines as written inside a Host block (indented).
    public var indentedText: String { indented }
}

public struct SSHConfigWriter: Sendable {
    public private(set) var text = ""
    /// True after a `Host` or `Match` line: the lines that follow belong to it and are indented.
    private var inBlock = false

    public init() {}

    /// Starts a `Host` block for one literal alias.
    public mutating func host(_ alias: String, aliases: [String] = []) throws {
        try Self.checkAlias(alias)
        for a in aliases { try Self.checkAlias(a) }
        if !text.isEmpty { text += "\n" }
        text += "Host "
        text += alias
        for a in aliases {
            text += " "
            text += a
        }
        text += "\n"
        inBlock = true
    }

    /// `Match all`: ends the previous block, so what follows applies to every host.
    public mutating func matchAll() {
        if !text.isEmpty { text += "\n" }
        text += "Match all\n"
        inBlock = true
    }

    /// One `Keyword value` line; the value is one word, quoted when it needs to be.
    public mutating func set(_ keyword: String, _ value: String) throws {
        try Self.checkKeyword(keyword)
        let quoted = try Self.quote(value, keyword: keyword)
        if inBlock { text += "    " }
        text += keyword
        text += " "
        text += quoted
        text += "\n"
    }

    /// One line whose words are quoted one by one (`UserKnownHostsFile a b`, a
    /// `KnownHostsCommand` and its arguments).
    public mutating func set(_ keyword: String, words: [String]) throws {
        try Self.checkKeyword(keyword)
        guard !words.isEmpty else { throw SSHConfigWriterError(keyword: keyword, reason: "no value") }
        let quoted = try words.map { try Self.quote($0, keyword: keyword) }
        if inBlock { text += "    " }
        text += keyword
        for word in quoted {
            text += " "
            text += word
        }
        text += "\n"
    }

    /// The lines `body` writes, checked and quoted as `set` does, to be appended to any
    /// number of blocks with `append`.
    public static func lines(_ body: (inout SSHConfigWriter) throws -> Void) rethrows -> SSHConfigLines {
        var plain = SSHConfigWriter()
        try body(&plain)
        var indented = SSHConfigWriter()
        indented.inBlock = true
        try body(&indented)
        return SSHConfigLines(indented: indented.text, plain: plain.text)
    }

    /// Appends lines made by `lines`, as the same `set` calls here would write them.
    public mutating func append(_ lines: SSHConfigLines) {
        text += inBlock ? lines.indented : lines.plain
    }

    /// A value as ssh_config reads it back as one word: bare when it holds nothing special,
    /// else in double quotes with `\` escaped. A `"` cannot be written so that every
    /// OpenSSH version reads it back the same way, so it is refused, as are control
    /// characters and line breaks, which would end or split the line.
    public static func quote(_ value: String, keyword: String = "value") throws -> String {
        guard !value.isEmpty else { throw SSHConfigWriterError(keyword: keyword, reason: "the value is empty") }
        // Byte by byte (the installed configuration quotes about 100,000 values): a C1
        // control U+0080–U+009F is C2 80–C2 9F in UTF-8.
        var special = false
        var previous: UInt8 = 0
        for b in value.utf8 {
            if b < 0x20 || b == 0x7f || (previous == 0xC2 && (0x80...0x9f).contains(b)) {
                throw SSHConfigWriterError(keyword: keyword, reason: "the value holds a control character or line break")
            }
            switch b {
            case UInt8(ascii: "\""):
                throw SSHConfigWriterError(keyword: keyword, reason: "the value holds a double quote")
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "'"), UInt8(ascii: "#"), UInt8(ascii: "\\"), UInt8(ascii: "="):
                special = true
            default:
                break
            }
            previous = b
        }
        guard special else { return value }
        return "\"" + value.replacingAll("\\", with: "\\\\") + "\""
    }

    /// `%` doubled, for keywords whose values ssh expands `%` tokens in (IdentityFile,
    /// IdentityAgent, KnownHostsCommand, HostName, ...); a lone `%` there is fatal to ssh.
    public static func escapingPercent(_ value: String) -> String { value.replacingAll("%", with: "%%") }

    /// A Host alias must be one literal name ssh matches exactly: no pattern characters
    /// (`*`, `?`, `!`), no list separator (`,`), no whitespace, quotes, `#`, `=`, `%` or
    /// control characters, and it must not start with `-`.
    public static func checkAlias(_ alias: String) throws {
        guard !alias.isEmpty else { throw SSHConfigWriterError(keyword: "Host", reason: "the alias is empty") }
        var previous: UInt8 = 0
        for b in alias.utf8 {
            if b <= 0x20 || b == 0x7f || (previous == 0xC2 && (0x80...0x9f).contains(b)) || Self.refusedInAlias.contains(b) {
                throw SSHConfigWriterError(keyword: "Host", reason: "'\(alias.escapedForMessage)' is not one literal host name")
            }
            previous = b
        }
        if alias.hasPrefix("-") { throw SSHConfigWriterError(keyword: "Host", reason: "an alias cannot start with '-'") }
    }

    /// The ASCII characters a Host alias may not hold (checkAlias).
    private static let refusedInAlias: [UInt8] = Array("*?!,\"'#=%\\$`".utf8)

    private static func checkKeyword(_ keyword: String) throws {
        guard !keyword.isEmpty, keyword.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) }) else {
            throw SSHConfigWriterError(keyword: keyword.escapedForMessage, reason: "not a keyword")
        }
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        // Most values hold no `target` at all: nothing to build.
        if let t = target.asciiValue, !utf8.contains(t) { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }

    /// Control characters shown as `\u{..}` so a message stays one line.
    fileprivate var escapedForMessage: String {
        unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
