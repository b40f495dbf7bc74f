// bcrypt_pbkdf exactly as OpenSSH implements it (docs/formats.md, "bcrypt_pbkdf";
// openbsd-compat/bcrypt_pbkdf.c). A PBKDF2-like outer loop over SHA-512 and the eksblowfish
// `bhash`, with the output bytes of the blocks interleaved rather than concatenated.
//
// The ⌈keylen/32⌉ output blocks do not depend on each other, so they run on separate
// threads; each thread writes only its own 32-byte slot of one shared buffer.
import Dispatch
import SecureMemory

public enum BcryptPBKDF {
    /// OpenSSH's limits (bcrypt_pbkdf.c): keylen 1…1024, rounds ≥ 1, salt 1 byte … 1 MiB,
    /// non-empty pass.
    public static let maxKeyLength = 1024
    public static let maxSaltLength = 1 << 20

    /// Derives `keyLength` bytes from `passphrase` and `salt` with `rounds` rounds.
    public static func derive(passphrase: SecretBytes, salt: [UInt8], keyLength: Int, rounds: Int) throws -> SecretBytes {
        try passphrase.withUnsafeBytes { try derive(passphrase: $0, salt: salt, keyLength: keyLength, rounds: rounds) }
    }

    /// The same over raw bytes (used by tests with vectors that hold NUL bytes).
    public static func derive(passphrase: UnsafeRawBufferPointer, salt: [UInt8], keyLength: Int, rounds: Int) throws -> SecretBytes {
        guard rounds >= 1 else { throw KeyFormatError.invalid("bcrypt rounds must be at least 1, not \(rounds)") }
        guard passphrase.count > 0 else { throw KeyFormatError.invalid("bcrypt_pbkdf needs a non-empty passphrase") }
        guard !salt.isEmpty, salt.count <= maxSaltLength else {
            throw KeyFormatError.invalid("the bcrypt salt must be 1 byte to 1 MiB long, not \(salt.count) bytes")
        }
        guard keyLength >= 1, keyLength <= maxKeyLength else {
            throw KeyFormatError.invalid("bcrypt_pbkdf can derive 1 to \(maxKeyLength) bytes, not \(keyLength)")
        }

        // hpass = SHA-512(pass), once, as 16 big-endian words.
        let scratch = SecretBytes(count: 64)
        let passWords = SecretBytes(count: 64)
        scratch.withUnsafeMutableBytes { digest in
            Digest.sha512(passphrase, into: digest)
            passWords.withUnsafeMutableBytes { loadWords(from: UnsafeRawBufferPointer(digest), into: $0) }
        }

        let blocks = (keyLength + 31) / 32
        let accumulators = SecretBytes(count: blocks * 32)
        let shared = BlockOutputs(passWords: passWords, accumulators: accumulators)
        if blocks == 1 {
            computeBlock(1, salt: salt, rounds: rounds, shared: shared)
        } else {
            DispatchQueue.concurrentPerform(iterations: blocks) { index in
                computeBlock(index + 1, salt: salt, rounds: rounds, shared: shared)
            }
        }

        // Scatter: output byte j comes from block (j mod nblk)+1, byte j div nblk (bcrypt_pbkdf.c).
        let key = SecretBytes(count: keyLength)
        key.withUnsafeMutableBytes { k in
            accumulators.withUnsafeBytes { acc in
                for b in 0..<blocks {
                    for i in 0..<32 {
                        let j = i * blocks + b
                        if j < keyLength { k[j] = acc[b * 32 + i] }
                    }
                }
            }
        }
        return key
    }

    /// One output block: T_1 = bhash(hpass, SHA-512(salt ‖ be32(b))), T_k = bhash(hpass,
    /// SHA-512(T_{k-1})); the accumulator is T_1 ⊕ … ⊕ T_rounds.
    private static func computeBlock(_ block: Int, salt: [UInt8], rounds: Int, shared: BlockOutputs) {
        let work = SecretBytes(count: 32 + 32 + 64 + 64)   // tmp · acc · digest · salt words
        var countSalt = salt
        countSalt.append(contentsOf: [UInt8(truncatingIfNeeded: block >> 24), UInt8(truncatingIfNeeded: block >> 16),
                                      UInt8(truncatingIfNeeded: block >> 8), UInt8(truncatingIfNeeded: block)])
        let blowfish = Eksblowfish()
        shared.passWords.withUnsafeBytes { passRaw in
            let passWords = passRaw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            work.withUnsafeMutableBytes { w in
                let tmp = UnsafeMutableRawBufferPointer(rebasing: w[0..<32])
                let acc = UnsafeMutableRawBufferPointer(rebasing: w[32..<64])
                let digest = UnsafeMutableRawBufferPointer(rebasing: w[64..<128])
                let saltWordsRaw = UnsafeMutableRawBufferPointer(rebasing: w[128..<192])
                let saltWords = saltWordsRaw.baseAddress!.assumingMemoryBound(to: UInt32.self)

                countSalt.withUnsafeBytes { Digest.sha512($0, into: digest) }
                loadWords(from: UnsafeRawBufferPointer(digest), into: saltWordsRaw)
                blowfish.hash(passWords: passWords, saltWords: saltWords, into: tmp.baseAddress!)
                acc.copyMemory(from: UnsafeRawBufferPointer(tmp))
                var round = 1
                while round < rounds {
                    Digest.sha512(UnsafeRawBufferPointer(tmp), into: digest)
                    loadWords(from: UnsafeRawBufferPointer(digest), into: saltWordsRaw)
                    blowfish.hash(passWords: passWords, saltWords: saltWords, into: tmp.baseAddress!)
                    for i in 0..<32 { acc[i] ^= tmp[i] }
                    round += 1
                }
                shared.store(block: block, from: UnsafeRawBufferPointer(acc))
            }
        }
    }

    /// 64 bytes → 16 big-endian 32-bit words (the cyclic stream of blowfish.c
    /// `Blowfish_stream2word` over a 64-byte input is exactly these 16 words repeated).
    private static func loadWords(from bytes: UnsafeRawBufferPointer, into words: UnsafeMutableRawBufferPointer) {
        let w = words.baseAddress!.assumingMemoryBound(to: UInt32.self)
        for i in 0..<16 {
            w[i] = UInt32(bytes[4 * i]) << 24 | UInt32(bytes[4 * i + 1]) << 16
                | UInt32(bytes[4 * i + 2]) << 8 | UInt32(bytes[4 * i + 3])
        }
    }
}

/// What the block threads share: the read-only password words, and the accumulator buffer
/// in which block b (1-based) writes only bytes (b-1)·32 ..< b·32 — disjoint slots, so
/// there is no data race although the buffer is shared.
private struct BlockOutputs: @unchecked Sendable {
    let passWords: SecretBytes
    let accumulators: SecretBytes

    func store(block: Int, from acc: UnsafeRawBufferPointer) {
        accumulators.withUnsafeMutableBytes { out in
            (out.baseAddress! + (block - 1) * 32).copyMemory(from: acc.baseAddress!, byteCount: 32)
        }
    }
}
