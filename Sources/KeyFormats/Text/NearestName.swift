// "Did you mean": the known name nearest to a mistyped one (a command word, an option, a
// saved host), by the optimal-string-alignment form of the Damerau–Levenshtein distance
// (insert, delete, substitute, swap two neighbours; each costs 1), compared without regard
// to ASCII case. Only a close name is offered: at most 1 edit for a word of up to 5
// characters, 2 for a longer one, so a short or unrelated word gets no suggestion. The
// caller shows the name; nothing is ever run on the strength of it.

public enum NearestName {
    /// The most edits a suggestion for `word` may be away.
    public static func bound(for word: String) -> Int { word.count <= 5 ? 1 : 2 }

    /// The candidate nearest to `word` within `bound(for:)`, the first in `candidates`' order
    /// on a tie; nil when none is that close, or when `word` itself is a candidate.
    public static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty else { return nil }
        let limit = bound(for: word)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            let cap = min(limit, (best?.distance ?? limit + 1) - 1)
            guard cap >= 0, let d = distance(target, other, atMost: cap) else { continue }
            if d == 0 { return nil }
            best = (candidate, d)
        }
        return best?.name
    }

    /// The edit distance between `a` and `b`, or nil when it is more than `limit`. Rows of
    /// the table are cut off as soon as every cell in one exceeds the limit.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        if abs(a.count - b.count) > limit { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        var before = [Int](repeating: 0, count: width)   // row i-2
        var previous = Array(0...b.count)                  // row i-1
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
                rowMinimum = min(rowMinimum, d)
            }
            if rowMinimum > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        let d = previous[b.count]
        return d <= limit ? d : nil
    }
}
