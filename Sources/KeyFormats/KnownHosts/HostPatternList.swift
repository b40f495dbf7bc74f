// Host pattern lists as OpenSSH matches them (match.c match_hostname → match_pattern_list;
// docs/formats.md, "Host patterns"). The lookup name is lower-cased and each pattern character is
// lower-cased as it is compared (ASCII only, like C's tolower in the C locale), so plain
// entries are case-insensitive. `*` matches any run (also empty), `?` exactly one
// character; every other character is literal — `[`, `]`, `:` and `.` included. There are
// no character classes and no escapes.

public enum HostPatternList {
    /// OpenSSH's sub-pattern buffer is 1024 bytes: a sub-pattern of 1023 bytes or more ends
    /// the scan and the line does not match (match_pattern_list returns 0 at that point).
    public static let maxSubpatternLength = 1023

    /// How a comma-separated pattern list relates to a name.
    public enum Outcome: Equatable, Sendable {
        /// A positive pattern matched and no negated one did.
        case matched
        /// A `!pattern` matched: the line never matches, whatever else is on it.
        case negated
        case noMatch
    }

    /// match_hostname(name, list): lower-cases `name`, then walks the list in order.
    /// A matching negated pattern returns `.negated` at once; a too-long sub-pattern returns
    /// `.noMatch` at once (even after an earlier positive match, as OpenSSH does).
    public static func match(name: String, patterns list: String) -> Outcome {
        match(name: Array(name.utf8).map(lower), patterns: Array(list.utf8))
    }

    /// Byte-level form; `name` must already be lower-cased.
    public static func match(name: [UInt8], patterns list: [UInt8]) -> Outcome {
        var positive = false
        var i = 0
        // As match_pattern_list: sub-patterns run to a comma or the end; a trailing comma
        // adds no empty sub-pattern, and an empty list matches nothing.
        while i < list.count {
            let negated = list[i] == UInt8(ascii: "!")
            if negated { i += 1 }
            let start = i
            while i < list.count && list[i] != UInt8(ascii: ",") { i += 1 }
            if i - start >= maxSubpatternLength { return .noMatch }
            let sub = list[start..<i]
            if i < list.count { i += 1 }
            if matches(name, sub) {
                if negated { return .negated }
                positive = true
            }
        }
        return positive ? .matched : .noMatch
    }

    /// True when the list holds a wildcard or a negation (`*`, `?`, `!`): such entries are
    /// kept whole and matched by scanning, never hashed (ssh-keygen -H copies them as is).
    public static func hasWildcards(_ list: String) -> Bool {
        list.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "!") }
    }

    /// match_pattern(s, pattern) with lower-casing of the pattern: iterative with
    /// backtracking to the last `*`, which is equivalent to OpenSSH's recursion.
    static func matches(_ s: [UInt8], _ p: ArraySlice<UInt8>) -> Bool {
        var si = 0
        var pi = p.startIndex
        var starP = -1
        var starS = 0
        while si < s.count {
            if pi < p.endIndex {
                let c = p[pi]
                if c == UInt8(ascii: "*") {
                    starP = pi; starS = si; pi += 1
                    continue
                }
                if c == UInt8(ascii: "?") || lower(c) == s[si] {
                    pi += 1; si += 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            pi = starP + 1
            starS += 1
            si = starS
        }
        while pi < p.endIndex && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.endIndex
    }

    @inline(__always)
    static func lower(_ c: UInt8) -> UInt8 {
        c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c
    }

    /// ASCII lower-casing of a whole name (ssh's lowercase()).
    public static func lowercased(_ name: String) -> String {
        String(decoding: name.utf8.map(lower), as: UTF8.self)
    }
}
