// Text on its way to the terminal. Everything a program prints goes through this type
// (its print, note and warn lines, prompts, Output.write), and its string interpolation
// escapes by default: in `"Imported key '\(key.name)'"` the literal parts are the program's
// own words and are kept, while every interpolated value — a name from the database, a key
// comment, a path, a server banner, a Tailscale field, an error's description — passes
// through the project's one escaping rule, `PrintableText.quoted`. So a key comment holding
// ESC or a line break cannot clear the screen or draw a fake line under the program's own.
//
// Printing text as it is must be spelled out: `\(raw: text)` or `.raw(text)`, for what
// the program rendered itself and must keep its line breaks or colour codes (a table, JSON,
// the man page, a completion script, randomart). A `TerminalText` interpolated into another
// is kept as it is: it was escaped when it was made.
//
// Escaping is idempotent (what `quoted` writes holds nothing it would escape again), so a
// value already passed through `PrintableText.quoted` (or the program's own spelling of it) prints the same.
import KeyFormats

public struct TerminalText: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// The characters to write: literals and raw parts as given, everything else escaped.
    public private(set) var text: String

    private init(text: String) { self.text = text }

    /// A literal is the program's own text.
    public init(stringLiteral value: String) { text = value }

    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    /// Text printed exactly as given: only for what the program rendered itself.
    public static func raw(_ text: String) -> TerminalText { TerminalText(text: text) }

    public var isEmpty: Bool { text.isEmpty }

    public static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText { TerminalText(text: lhs.text + rhs.text) }

    public static func += (lhs: inout TerminalText, rhs: TerminalText) { lhs.text += rhs.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Any value — a String from outside, a number, an error — escaped.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += PrintableText.quoted(value.description)
        }

        public mutating func appendInterpolation(_ error: any Error) {
            text += PrintableText.quoted(String(describing: error))
        }

        /// Already terminal text: kept as it is.
        public mutating func appendInterpolation(_ value: TerminalText) { text += value.text }

        /// Printed as it is: spelled out where the code means it.
        public mutating func appendInterpolation(raw value: String) { text += value }
    }
}

extension Sequence<TerminalText> {
    public func joined(separator: TerminalText = "") -> TerminalText {
        .raw(map(\.text).joined(separator: separator.text))
    }
}
