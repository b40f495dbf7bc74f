// Bubble Babble (Antti Huima's encoding; `ssh-keygen -B`, sshkey.c fingerprint_bubblebabble): a
// pronounceable rendering of the SHA-1 digest of the public key blob, as in `.fp.bb` files.

extension PublicKey {
    /// `xubop-rekyd-…-fuxux`: Bubble Babble of SHA-1(blob).
    public var bubbleBabble: String { BubbleBabble.encode(Digest.sha1(blob)) }
}

public enum BubbleBabble {
    private static let vowels: [Character] = Array("aeiouy")
    private static let consonants: [Character] = Array("bcdfghklmnprstvzx")

    public static func encode(_ data: [UInt8]) -> String {
        var out = "x"
        var seed = 1
        let rounds = data.count / 2 + 1
        for i in 0..<rounds {
            if i + 1 < rounds || data.count % 2 != 0 {
                // A full pair, or the final odd byte (only its three letters).
                let b0 = Int(data[2 * i])
                out.append(vowels[(((b0 >> 6) & 3) + seed) % 6])
                out.append(consonants[(b0 >> 2) & 15])
                out.append(vowels[((b0 & 3) + seed / 6) % 6])
                if i + 1 < rounds {
                    let b1 = Int(data[2 * i + 1])
                    out.append(consonants[(b1 >> 4) & 15])
                    out.append("-")
                    out.append(consonants[b1 & 15])
                    seed = (seed * 5 + b0 * 7 + b1) % 36
                }
            } else {
                // Even length: a closing group vowel, 'x', vowel.
                out.append(vowels[seed % 6])
                out.append(consonants[16])
                out.append(vowels[seed / 6])
            }
        }
        out.append("x")
        return out
    }
}
