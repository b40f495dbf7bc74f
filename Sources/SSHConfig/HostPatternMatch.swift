// ssh's wildcard patterns (match.c match_pattern, match_pattern_list): `*` is any run of
// characters, `?` exactly one, nothing else is special; `!` negates a pattern in a list.
// Host lines match case-sensitively against the name as typed (docs/openssh-behaviour.md,
// "ssh_config"); Match criteria lower-case the pattern and, for host names, the name.

public enum HostPatternMatch {
    /// match_pattern: the whole of `name` against `pattern`, byte by byte.
    public static func matches(_ name: String, pattern: String) -> Bool {
        matches(Array(name.utf8)[...], Array(pattern.utf8)[...])
    }

    static func matches(_ s: ArraySlice<UInt8>, _ p: ArraySlice<UInt8>) -> Bool {
        var steps = 0
        return matches(s, p, steps: &steps)
    }

    /// The same, counting the steps of its loop in `steps` (for the test that shows the
    /// work is bounded by the product of the two lengths, never exponential).
    static func matches(_ s: ArraySlice<UInt8>, _ p: ArraySlice<UInt8>, steps: inout Int) -> Bool {
        // Iterative with one backtrack point: the last `*` seen (equivalent to match.c's
        // recursion, without its exponential worst case).
        var si = s.startIndex, pi = p.startIndex
        var star: Int? = nil, starS = s.startIndex
        while si < s.endIndex {
            steps += 1
            if pi < p.endIndex, p[pi] == UInt8(ascii: "*") {
                star = pi
                pi += 1
                starS = si
            } else if pi < p.endIndex, p[pi] == UInt8(ascii: "?") || p[pi] == s[si] {
                pi += 1
                si += 1
            } else if let st = star {
                pi = st + 1
                starS += 1
                si = starS
            } else {
                return false
            }
        }
        while pi < p.endIndex, p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.endIndex
    }

    /// True when `pattern` names one host: no wildcard and no negation.
    public static func isConcrete(_ pattern: String) -> Bool {
        !pattern.isEmpty && !pattern.hasPrefix("!") && !pattern.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }
    }

    /// readconf.c `Host`: the block applies when some positive pattern matches `name` and
    /// no negated one does.
    public static func hostLineMatches(_ name: String, patterns: [String]) -> Bool {
        var active = false
        for var pattern in patterns {
            let negated = pattern.hasPrefix("!")
            if negated { pattern.removeFirst() }
            if matches(name, pattern: pattern) {
                if negated { return false }
                active = true
            }
        }
        return active
    }

    /// match_pattern_list: `list` is comma-separated; 1 if a positive pattern matched and no
    /// negated one did, -1 if a negated one matched, 0 otherwise. `lowercasePatterns`
    /// lower-cases each pattern (ASCII) first, as Match does.
    public static func listMatch(_ name: String, list: String, lowercasePatterns: Bool) -> Int {
        var positive = false
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            var pattern = Array(part.utf8)[...]
            let negated = pattern.first == UInt8(ascii: "!")
            if negated { pattern = pattern.dropFirst() }
            if lowercasePatterns {
                pattern = ArraySlice(pattern.map { $0 >= 0x41 && $0 <= 0x5a ? $0 | 0x20 : $0 })
            }
            if matches(Array(name.utf8)[...], pattern) {
                if negated { return -1 }
                positive = true
            }
        }
        return positive ? 1 : 0
    }

    /// ASCII lower case, as ssh's lowercase().
    public static func lowercased(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5a }) else { return s }
        return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5a ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
