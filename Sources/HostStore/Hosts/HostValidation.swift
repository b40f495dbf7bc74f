// The rules for what a host may hold. Each failure is a `.rejected` error (exit 5) whose
// message names the value and says what is allowed.
import KeyFormats
import System

public enum HostValidation {
    public static let maxNoteBytes = 4096

    /// 1–64 letters, digits, `.`, `_`, `-` (names are unique regardless of case).
    public static func name(_ s: String, what: String = "host name") throws {
        guard isName(s) else {
            throw HostStoreError.rejected("invalid \(what) '\(s)': use 1 to 64 letters, digits, '.', '_' or '-'")
        }
    }

    static func isName(_ s: String) -> Bool {
        let u = s.utf8
        return (1...64).contains(u.count) && u.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// A saved host's `--hostname`: the rule is HostNameRule.hostnameProblem (KeyFormats),
    /// the one owner of host-name validity.
    public static func hostname(_ s: String) throws {
        if let problem = HostNameRule.hostnameProblem(s) { throw HostStoreError.rejected(problem) }
    }

    public static func port(_ n: Int) throws {
        guard TCPPort.isValid(n) else { throw portError(String(n)) }
    }

    /// Reads `--port` text: a malformed or out-of-range value is rejected the same way.
    public static func port(text: String) throws -> Int {
        guard text.utf8.count <= 6, text.utf8.allSatisfy(isDigit), let n = Int(text), TCPPort.isValid(n) else {
            throw portError(text)
        }
        return n
    }

    static func portError(_ text: String) -> HostStoreError {
        HostStoreError.rejected("invalid port '\(text)': use a whole number from \(TCPPort.range.lowerBound) to \(TCPPort.range.upperBound)")
    }

    /// A login name: 1–64 letters, digits, `.`, `_`, `-`, `@`, not starting with `-` (which
    /// ssh would read as an option).
    public static func user(_ s: String) throws {
        let u = s.utf8
        guard (1...64).contains(u.count), u.first != UInt8(ascii: "-"),
              u.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "@") }) else {
            throw HostStoreError.rejected("invalid user '\(s)': use 1 to 64 letters, digits, '.', '_', '-' or '@', not starting with '-'")
        }
    }

    /// A tag: 1–64 letters, digits, `.`, `_`, `-`, `:` (so Tailscale's `tag:prod` fits).
    public static func tag(_ s: String) throws {
        let u = s.utf8
        guard (1...64).contains(u.count),
              u.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }) else {
            throw HostStoreError.rejected("invalid tag '\(s)': use 1 to 64 letters, digits, '.', '_', '-' or ':'")
        }
    }

    /// Free text on one line: at most 4096 bytes, no control characters or bidi controls.
    public static func note(_ s: String) throws {
        if s.utf8.count > maxNoteBytes {
            throw HostStoreError.rejected("the note is too long (\(s.utf8.count) bytes; at most \(maxNoteBytes))")
        }
        if let problem = TextRules.firstForbiddenScalar(in: s) {
            throw HostStoreError.rejected("the note contains \(problem.description)", hint: "Write the note on one line without control characters.")
        }
    }

    static func isAlnum(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) }
    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
