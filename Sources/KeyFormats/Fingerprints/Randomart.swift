// The "drunken bishop" randomart of `ssh-keygen -lv` and `VisualHostKey=yes` (sshkey.c
// fingerprint_randomart, after Loss, Limbach & Appel, "The drunken bishop"): a bishop starts
// in the middle of a 17×9 field and, for each digest byte, makes four diagonal moves taken
// from the byte's bit pairs, low bits first; each square counts its visits.

extension PublicKey {
    /// The picture `ssh-keygen -lv` prints over the SHA-256 fingerprint, byte for byte
    /// (11 lines joined by `\n`, without a final newline).
    public var randomart: String { randomart(digest: Digest.sha256(blob), hashName: "SHA256") }

    /// The same over the MD5 digest (`ssh-keygen -lv -E md5`).
    public var md5Randomart: String { randomart(digest: Digest.md5(blob), hashName: "MD5") }

    func randomart(digest: [UInt8], hashName: String) -> String {
        Randomart.render(digest: digest, title: "[\(shortTypeName) \(bits)]",
                         shortTitle: "[\(shortTypeName)]", footer: "[\(hashName)]")
    }
}

enum Randomart {
    static let width = 17          // FLDSIZE_X = 2·8 + 1
    static let height = 9          // FLDSIZE_Y = 8 + 1
    /// Symbols by visit count; the last two mark the start (S) and end (E) squares.
    static let symbols: [Character] = Array(" .o+=*BOX@%&#/^SE")

    /// `title` is used when it fits the 17-column border with its NUL (16 characters),
    /// else `shortTitle` (cut to 16), as ssh-keygen's snprintf into char[FLDSIZE_X] does.
    static func render(digest: [UInt8], title: String, shortTitle: String, footer: String) -> String {
        let top = symbols.count - 1           // 'E'
        var field = [[Int]](repeating: [Int](repeating: 0, count: height), count: width)
        var x = width / 2, y = height / 2
        for byte in digest {
            var input = byte
            for _ in 0..<4 {
                x += input & 0x1 != 0 ? 1 : -1
                y += input & 0x2 != 0 ? 1 : -1
                x = min(max(x, 0), width - 1)
                y = min(max(y, 0), height - 1)
                if field[x][y] < top - 2 { field[x][y] += 1 }
                input >>= 2
            }
        }
        field[width / 2][height / 2] = top - 1   // S
        field[x][y] = top                        // E

        let heading = title.count <= width - 1 ? title : String(shortTitle.prefix(width - 1))
        var lines = [border(heading)]
        for row in 0..<height {
            var line = "|"
            for column in 0..<width { line.append(symbols[min(field[column][row], top)]) }
            line.append("|")
            lines.append(line)
        }
        lines.append(border(String(footer.prefix(width - 1))))
        return lines.joined(separator: "\n")
    }

    /// `+`, dashes, the label centred (left-leaning: (17 − len)/2 dashes before), dashes, `+`.
    private static func border(_ label: String) -> String {
        let before = (width - label.count) / 2
        let after = width - before - label.count
        return "+" + String(repeating: "-", count: before) + label + String(repeating: "-", count: after) + "+"
    }
}
