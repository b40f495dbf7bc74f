// A pull parser for JSON (RFC 8259) that reads its input in chunks and hands values to the
// caller one at a time, so a 100,000-peer Tailscale status is never held in memory whole.
// The caller walks the structure it expects (objects by member, arrays by element) and
// skips everything else with `skipValue()`, which still checks the grammar: invalid or
// truncated JSON anywhere in the input is an error, never a partial result.

/// The input is not JSON (RFC 8259), or ends before the value does. Public only as the
/// payload of `TailscaleInputError.notJSON`; the reader itself is internal.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "unexpected 'x'".
    public let reason: String
    public let line: Int
    public let column: Int
    /// True when the input ended in the middle of a value (a cut-off file).
    public let truncated: Bool

    public var description: String {
        truncated ? "it ends early, at line \(line) (the input looks cut off)"
                  : "\(reason) at line \(line), column \(column)"
    }
}

/// Valid JSON whose value at `path` is not of the kind the reader asked for.
struct JSONShapeError: Error, Sendable, Equatable, CustomStringConvertible {
    let path: String
    let expected: String
    let found: JSONKind
    var description: String { "\(path) is \(found.article), expected \(expected)" }
}

enum JSONKind: Sendable, Equatable {
    case object, array, string, number, bool, null

    var article: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

final class JSONStreamReader {
    private var source: any ByteSource
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Bytes consumed before `buffer[0]`.
    private var base = 0
    private var line = 1
    private var lineStart = 0
    /// Scratch space for a string being decoded.
    private var scratch: [UInt8] = []
    /// Bound on nesting in skipped values (RFC 8259 §9 allows a limit).
    static let maxDepth = 512
    /// Bound on one decoded string or number (RFC 8259 §9): no Tailscale field is near it.
    static let maxStringLength = 1 << 20

    init(_ source: any ByteSource, chunkSize: Int = 1 << 16) {
        self.source = source
        // At least 4 bytes: a byte order mark must fit (see skipByteOrderMark).
        self.buffer = .allocate(byteCount: max(chunkSize, 4), alignment: 1)
        scratch.reserveCapacity(1024)
    }

    deinit { buffer.deallocate() }

    // MARK: Bytes

    /// The next byte without consuming it, or nil at the end of the input.
    @inline(__always)
    private func peekByte() throws -> UInt8? {
        if start < end { return buffer[start] }
        return try refill() ? buffer[start] : nil
    }

    private func refill() throws -> Bool {
        if atEOF { return false }
        base += end
        start = 0
        end = 0
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { atEOF = true; return false }
            end = n
            return true
        }
    }

    private var offset: Int { base + start }

    private func syntax(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(reason: reason, line: line, column: offset - lineStart + 1, truncated: false)
    }

    private func truncated() -> JSONSyntaxError {
        JSONSyntaxError(reason: "unexpected end of input", line: line, column: offset - lineStart + 1, truncated: true)
    }

    private func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7f { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    /// Skips JSON whitespace (RFC 8259 §2) and returns the next byte, or nil at the end.
    @inline(__always)
    private func nextNonSpace() throws -> UInt8? {
        while true {
            while start < end {
                let b = buffer[start]
                switch b {
                case 0x20, 0x09, 0x0d: start += 1
                case 0x0a:
                    start += 1
                    line += 1
                    lineStart = base + start
                default: return b
                }
            }
            if try !refill() { return nil }
        }
    }

    private func require(_ byte: UInt8, _ what: String) throws {
        guard let b = try nextNonSpace() else { throw truncated() }
        guard b == byte else { throw syntax("expected \(what) but found \(describe(b))") }
        start += 1
    }

    // MARK: Kinds

    /// The kind of the next value, without consuming it.
    func peekKind() throws -> JSONKind {
        guard let b = try nextNonSpace() else { throw truncated() }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw syntax("unexpected \(describe(b))")
        }
    }

    /// At the very start of the input: skips a UTF-8 byte order mark (RFC 8259 §8.1 lets a
    /// parser ignore one) and returns true when the input instead starts with a UTF-16 one,
    /// which JSON exchanged between systems must not be.
    func skipByteOrderMark() throws -> Bool {
        guard base == 0, start == 0 else { return false }
        guard let first = try peekByte() else { return false }
        // Make sure the first three bytes are in the buffer (short reads are possible).
        while end - start < 3, !atEOF {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
            if n == 0 { atEOF = true } else { end += n }
        }
        if end - start >= 3, first == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
            lineStart = 3
            return false
        }
        return end - start >= 2 && ((first == 0xFF && buffer[start + 1] == 0xFE) || (first == 0xFE && buffer[start + 1] == 0xFF))
    }

    /// True when nothing but whitespace is left.
    func atEnd() throws -> Bool { try nextNonSpace() == nil }

    /// Fails unless nothing but whitespace follows the value just read.
    func expectEnd() throws {
        if let b = try nextNonSpace() { throw syntax("unexpected \(describe(b)) after the end of the JSON value") }
    }

    // MARK: Containers

    /// Reads an object; `member` is called with each key and must consume that member's value.
    func readObject(_ member: (String) throws -> Void) throws {
        try require(UInt8(ascii: "{"), "'{'")
        guard let first = try nextNonSpace() else { throw truncated() }
        if first == UInt8(ascii: "}") { start += 1; return }
        while true {
            guard let q = try nextNonSpace() else { throw truncated() }
            guard q == UInt8(ascii: "\"") else { throw syntax("expected a member name in quotes but found \(describe(q))") }
            let key = try readStringToken()
            try require(UInt8(ascii: ":"), "':' after a member name")
            try member(key)
            guard let b = try nextNonSpace() else { throw truncated() }
            start += 1
            if b == UInt8(ascii: "}") { return }
            guard b == UInt8(ascii: ",") else { start -= 1; throw syntax("expected ',' or '}' but found \(describe(b))") }
        }
    }

    /// Reads an array; `element` is called once per element and must consume it.
    func readArray(_ element: () throws -> Void) throws {
        try require(UInt8(ascii: "["), "'['")
        guard let first = try nextNonSpace() else { throw truncated() }
        if first == UInt8(ascii: "]") { start += 1; return }
        while true {
            try element()
            guard let b = try nextNonSpace() else { throw truncated() }
            start += 1
            if b == UInt8(ascii: "]") { return }
            guard b == UInt8(ascii: ",") else { start -= 1; throw syntax("expected ',' or ']' but found \(describe(b))") }
        }
    }

    // MARK: Scalars

    /// Reads a string value.
    func readString(path: @autoclosure () -> String) throws -> String {
        let kind = try peekKind()
        guard kind == .string else { throw JSONShapeError(path: path(), expected: "a string", found: kind) }
        return try readStringToken()
    }

    /// Reads a string or null (nil).
    func readOptionalString(path: @autoclosure () -> String) throws -> String? {
        let kind = try peekKind()
        if kind == .null { try skipValue(); return nil }
        guard kind == .string else { throw JSONShapeError(path: path(), expected: "a string", found: kind) }
        return try readStringToken()
    }

    /// Reads a boolean or null (nil).
    func readOptionalBool(path: @autoclosure () -> String) throws -> Bool? {
        let kind = try peekKind()
        switch kind {
        case .null: try skipValue(); return nil
        case .bool:
            let isTrue = try peekByte() == UInt8(ascii: "t")
            try skipValue()
            return isTrue
        default: throw JSONShapeError(path: path(), expected: "true or false", found: kind)
        }
    }

    /// Reads an integer number or null. A number with a fraction or outside Int64 gives nil.
    func readOptionalInt(path: @autoclosure () -> String) throws -> Int64? {
        let kind = try peekKind()
        if kind == .null { try skipValue(); return nil }
        guard kind == .number else { throw JSONShapeError(path: path(), expected: "a number", found: kind) }
        scratch.removeAll(keepingCapacity: true)
        try scanNumber(into: true)
        return Int64(String(decoding: scratch, as: UTF8.self))
    }

    /// Reads an array of strings, or null (empty).
    func readStringArray(path: @autoclosure () -> String) throws -> [String] {
        let kind = try peekKind()
        if kind == .null { try skipValue(); return [] }
        guard kind == .array else { throw JSONShapeError(path: path(), expected: "an array of strings", found: kind) }
        var out: [String] = []
        var index = 0
        try readArray {
            out.append(try readString(path: "\(path())[\(index)]"))
            index += 1
        }
        return out
    }

    /// Consumes one value of any kind, checking its grammar, without building it.
    /// Iterative, so deep nesting cannot exhaust the stack.
    func skipValue() throws {
        // Each entry: true for an object, false for an array.
        var stack: [Bool] = []
        // True when the next thing must be a value (after '[', ':', ',').
        while true {
            guard let b = try nextNonSpace() else { throw truncated() }
            // A value.
            switch b {
            case UInt8(ascii: "{"):
                start += 1
                guard stack.count < Self.maxDepth else { throw syntax("values are nested more than \(Self.maxDepth) deep") }
                guard let n = try nextNonSpace() else { throw truncated() }
                if n == UInt8(ascii: "}") { start += 1; break }
                stack.append(true)
                try memberName()
                continue
            case UInt8(ascii: "["):
                start += 1
                guard stack.count < Self.maxDepth else { throw syntax("values are nested more than \(Self.maxDepth) deep") }
                guard let n = try nextNonSpace() else { throw truncated() }
                if n == UInt8(ascii: "]") { start += 1; break }
                stack.append(false)
                continue
            case UInt8(ascii: "\""):
                try skipStringToken()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber(into: false)
            default: throw syntax("unexpected \(describe(b))")
            }
            // After a complete value: close containers or move to the next element.
            while let isObject = stack.last {
                guard let n = try nextNonSpace() else { throw truncated() }
                start += 1
                if n == UInt8(ascii: ",") {
                    if isObject { try memberName() }
                    break
                }
                if n == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    stack.removeLast()
                    continue
                }
                start -= 1
                throw syntax("expected ',' or '\(isObject ? "}" : "]")' but found \(describe(n))")
            }
            if stack.isEmpty { return }
        }
    }

    /// Inside a skipped object: a member name and its colon.
    private func memberName() throws {
        guard let q = try nextNonSpace() else { throw truncated() }
        guard q == UInt8(ascii: "\"") else { throw syntax("expected a member name in quotes but found \(describe(q))") }
        try skipStringToken()
        try require(UInt8(ascii: ":"), "':' after a member name")
    }

    private func literal(_ word: StaticString) throws {
        let bytes = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard let b = try peekByte() else { throw truncated() }
            guard b == expected else { throw syntax("unexpected \(describe(b))") }
            start += 1
        }
    }

    /// Number grammar (RFC 8259 §6); appends its bytes to `scratch` when `into`.
    private func scanNumber(into keep: Bool) throws {
        func take() throws -> UInt8? {
            guard let b = try peekByte() else { return nil }
            return b
        }
        func consume(_ b: UInt8) throws {
            if keep {
                guard scratch.count < Self.maxStringLength else { throw syntax("a number is longer than 1 MiB") }
                scratch.append(b)
            }
            start += 1
        }
        func digits(required: Bool) throws {
            var any = false
            while let b = try take(), b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { try consume(b); any = true }
            if required && !any {
                guard let b = try take() else { throw truncated() }
                throw syntax("expected a digit but found \(describe(b))")
            }
        }
        if try take() == UInt8(ascii: "-") { try consume(UInt8(ascii: "-")) }
        guard let first = try take() else { throw truncated() }
        if first == UInt8(ascii: "0") {
            try consume(first)
        } else if first >= UInt8(ascii: "1") && first <= UInt8(ascii: "9") {
            try digits(required: true)
        } else {
            throw syntax("expected a digit but found \(describe(first))")
        }
        if try take() == UInt8(ascii: ".") { try consume(UInt8(ascii: ".")); try digits(required: true) }
        if let e = try take(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            try consume(e)
            if let s = try take(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { try consume(s) }
            try digits(required: true)
        }
    }

    // MARK: Strings (RFC 8259 §7)

    /// Reads a string starting at its opening quote and returns it decoded.
    private func readStringToken() throws -> String {
        start += 1  // the opening quote
        scratch.removeAll(keepingCapacity: true)
        while true {
            if start == end, try !refill() { throw truncated() }
            // Copy the run of plain bytes up to a quote, backslash or control character.
            var i = start
            while i < end {
                let b = buffer[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                i += 1
            }
            if i > start {
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<i]))
                start = i
                guard scratch.count <= Self.maxStringLength else { throw syntax("a string is longer than 1 MiB") }
            }
            if i == end { continue }
            let b = buffer[i]
            if b == UInt8(ascii: "\"") {
                start += 1
                guard let s = String(validating: scratch, as: UTF8.self) else {
                    throw syntax("a string is not valid UTF-8")
                }
                return s
            }
            if b < 0x20 { throw syntax("a control character (\(describe(b))) inside a string") }
            start += 1
            try escape(into: true)
            guard scratch.count <= Self.maxStringLength else { throw syntax("a string is longer than 1 MiB") }
        }
    }

    /// Consumes a string starting at its opening quote without decoding it.
    private func skipStringToken() throws {
        start += 1
        while true {
            if start == end, try !refill() { throw truncated() }
            while start < end {
                let b = buffer[start]
                if b == UInt8(ascii: "\"") { start += 1; return }
                if b < 0x20 { throw syntax("a control character (\(describe(b))) inside a string") }
                start += 1
                if b == UInt8(ascii: "\\") { try escape(into: false) }
            }
        }
    }

    /// After a backslash: one escape, decoded into `scratch` when `keep`.
    private func escape(into keep: Bool) throws {
        guard let e = try peekByte() else { throw truncated() }
        start += 1
        let simple: UInt8?
        switch e {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5c
        case UInt8(ascii: "/"): simple = 0x2f
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0c
        case UInt8(ascii: "n"): simple = 0x0a
        case UInt8(ascii: "r"): simple = 0x0d
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: start -= 1; throw syntax("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string")
        }
        if let simple { if keep { scratch.append(simple) }; return }
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            // A high surrogate must be followed by \u and a low surrogate.
            if try peekByte() == UInt8(ascii: "\\") {
                start += 1
                guard try peekByte() == UInt8(ascii: "u") else { throw syntax("a lone UTF-16 surrogate in a string") }
                start += 1
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw syntax("a lone UTF-16 surrogate in a string") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                throw syntax("a lone UTF-16 surrogate in a string")
            }
        } else if (0xDC00...0xDFFF).contains(code) {
            throw syntax("a lone UTF-16 surrogate in a string")
        }
        if keep, let scalar = Unicode.Scalar(code) {
            scratch.append(contentsOf: String(Character(scalar)).utf8)
        }
    }

    private func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let h = try peekByte() else { throw truncated() }
            let d: UInt8
            switch h {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = h - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = h - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = h - UInt8(ascii: "A") + 10
            default: throw syntax("expected four hex digits after '\\u' but found \(describe(h))")
            }
            v = v << 4 | UInt32(d)
            start += 1
        }
        return v
    }
}
