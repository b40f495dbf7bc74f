// How many terminal columns text takes, as wcwidth(3) counts them: East Asian wide and
// fullwidth characters and emoji take 2, combining marks and other zero-width characters
// 0, everything else 1. Counted per grapheme (Character), so an emoji sequence
// (ZWJ, skin tone, keycap, flag) is one 2-column picture, as terminals draw it.

public enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    public static func of(_ text: String) -> Int {
        if let ascii = asciiWidth(text) { return ascii }
        var total = 0
        for c in text { total += of(c) }
        return total
    }

    /// The width of ASCII text (each printable byte one column, controls none, as `of`
    /// counts them), or nil when `text` holds anything else: a table's cells are nearly
    /// all ASCII, and walking them by grapheme was most of `list`'s time.
    public static func asciiWidth(_ text: String) -> Int? {
        var width = 0
        for b in text.utf8 {
            if b >= 0x80 { return nil }
            if b >= 0x20 && b != 0x7F { width += 1 }
        }
        return width
    }

    /// The columns one grapheme takes.
    public static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        if scalars.count == 1 { return of(scalars.first!) }
        var sum = 0
        for s in scalars {
            // An emoji anywhere in the cluster (ZWJ sequences, modifiers, flags) or a text
            // emoji turned into a picture by VS16 makes the whole cluster one 2-column image.
            if s.properties.isEmojiPresentation { return 2 }
            if s.value == 0xFE0F, let base = scalars.first, base.properties.isEmoji { return 2 }
            sum += of(s)
        }
        return sum
    }

    /// The columns one scalar takes on its own.
    public static func of(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }          // ASCII fast path (controls never reach a table unescaped)
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control, .lineSeparator, .paragraphSeparator:
            return 0
        case .format:
            return v == 0x00AD ? 1 : 0                       // soft hyphen shows; ZWJ, ZWSP, bidi marks do not
        default:
            break
        }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }   // Hangul medial vowels and finals join the syllable
        if s.properties.isEmojiPresentation { return 2 }
        return isWide(v) ? 2 : 1
    }

    /// East Asian Width W and F (Unicode UAX #11, EastAsianWidth.txt), the ranges that
    /// matter in practice, listed by hand: Swift's Unicode.Scalar.Properties has no
    /// east-asian-width property.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo initial consonants
        0x231A...0x231B, 0x2329...0x232A,
        0x2E80...0x303E,   // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,   // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,   // CJK extension A
        0x4E00...0x9FFF,   // CJK unified ideographs
        0xA000...0xA4CF,   // Yi
        0xA960...0xA97F,   // Hangul Jamo extended A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6F,   // CJK compatibility forms, small form variants
        0xFF00...0xFF60,   // fullwidth forms
        0xFFE0...0xFFE6,   // fullwidth signs
        0x16FE0...0x16FE4, 0x17000...0x18CFF,  // Tangut, Khitan
        0x1B000...0x1B2FF, // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs (those not already emoji-presentation)
        0x20000...0x2FFFD, // CJK extensions B–F, compatibility supplement
        0x30000...0x3FFFD, // CJK extensions G, H
    ]

    private static func isWide(_ v: UInt32) -> Bool {
        guard v >= 0x1100 else { return false }
        var lo = 0, hi = wideRanges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let r = wideRanges[mid]
            if v < r.lowerBound { hi = mid - 1 } else if v > r.upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }

    /// `text` cut to at most `width` columns, ending in `…` when anything was cut. Whole
    /// graphemes only: a wide character that does not fit leaves a column unused.
    public static func truncate(_ text: String, to width: Int) -> String {
        truncate(text, width: of(text), to: width)
    }

    /// `truncate(text, to:)` for a `text` whose width `of(text)` is known.
    public static func truncate(_ text: String, width textWidth: Int, to width: Int) -> String {
        guard textWidth > width else { return text }
        guard width >= 1 else { return "" }
        var out = ""
        var used = 0
        for c in text {
            let w = of(c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }
}
