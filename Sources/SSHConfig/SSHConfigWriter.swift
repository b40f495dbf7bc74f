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

public struct SSHConfigWriter: Sendable {
    public private(set) var text = ""
    /// True after a `Host` or `Match` line: the lines that follow belong to it and are indented.
    private var inBlock = false

    public init() {}

    /// Starts a `Host` block for one literal alias.
    public mutating func host(_ alias: String, aliases: [String] = []) throws {
        for a in [alias] + aliases { try Self.checkAlias(a) }
        if !text.isEmpty { text += "\n" }
        text += "Host \(([alias] + aliases).joined(separator: " "))\n"
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
        try set(keyword, words: [value])
    }

    /// One line whose words are quoted one by one (`UserKnownHostsFile a b`, a
    /// `KnownHostsCommand` and its arguments).
    public mutating func set(_ keyword: String, words: [String]) throws {
        try Self.checkKeyword(keyword)
        guard !words.isEmpty else { throw SSHConfigWriterError(keyword: keyword, reason: "no value") }
        let quoted = try words.map { try Self.quote($0, keyword: keyword) }
        text += (inBlock ? "    " : "") + keyword + " " + quoted.joined(separator: " ") + "\n"
    }

    /// A value as ssh_config reads it back as one word: bare when it holds nothing special,
    /// else in double quotes with `\` escaped. A `"` cannot be written so that every
    /// OpenSSH version reads it back the same way, so it is refused, as are control
    /// characters and line breaks, which would end or split the line.
    public static func quote(_ value: String, keyword: String = "value") throws -> String {
        guard !value.isEmpty else { throw SSHConfigWriterError(keyword: keyword, reason: "the value is empty") }
        for scalar in value.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7f || (0x80...0x9f).contains(scalar.value) {
                throw SSHConfigWriterError(keyword: keyword, reason: "the value holds a control character or line break")
            }
            if scalar == "\"" {
                throw SSHConfigWriterError(keyword: keyword, reason: "the value holds a double quote")
            }
        }
        let special: Set<Unicode.Scalar> = [" ", "\t", "'", "#", "\\", "=", "\""]
        guard value.unicodeScalars.contains(where: { special.contains($0) }) else { return value }
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
        let refused: Set<Unicode.Scalar> = ["*", "?", "!", ",", "\"", "'", "#", "=", "%", "\\", "$", "`"]
        for scalar in alias.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7f || (0x80...0x9f).contains(scalar.value) || refused.contains(scalar) {
                throw SSHConfigWriterError(keyword: "Host", reason: "'\(alias.escapedForMessage)' is not one literal host name")
            }
        }
        if alias.hasPrefix("-") { throw SSHConfigWriterError(keyword: "Host", reason: "an alias cannot start with '-'") }
    }

    private static func checkKeyword(_ keyword: String) throws {
        guard !keyword.isEmpty, keyword.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) else {
            throw SSHConfigWriterError(keyword: keyword.escapedForMessage, reason: "not a keyword")
        }
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
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
