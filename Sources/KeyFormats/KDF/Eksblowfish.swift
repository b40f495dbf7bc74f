// The modified eksblowfish core of bcrypt_pbkdf (docs/formats.md, "bcrypt_pbkdf"; OpenSSH
// openbsd-compat/bcrypt_pbkdf.c `bcrypt_hash` and blowfish.c). Blowfish's core is the one
// cipher hostbook implements itself: no installed library offers it. (Elsewhere hostbook
// only composes library primitives as a format prescribes, e.g. HMAC midstates over
// OpenSSL's SHA-1 in HashedNamePack.)
//
// Speed matters (it is the whole cost of opening an encrypted key), so the state lives in
// one fixed-size unsafe buffer (P: 18 words, then S0…S3: 4 × 256 words), and the 64-byte
// inputs are turned into 16 big-endian words up front instead of being streamed byte by
// byte. KeyFormats is built with the ordinary checks (-O, never -Ounchecked); this file
// alone opts out of them where it is provably safe, so the loop costs what C's does:
// every access goes through an UnsafeMutablePointer (no bounds check in release builds),
// and all index and word arithmetic is wrapping (`&+`, `&>>`: no overflow trap). Each
// S-box index is a byte (`& 0xff` or `&>> 24` of a 32-bit word, so 0…255), each P index
// is below 18 and each state index below `stateWords`, by the loop bounds.

import SecureMemory

/// One Blowfish state used for one `bhash`. Not shared between threads.
struct Eksblowfish: ~Copyable {
    static let pWords = 18
    static let stateWords = 18 + 4 * 256

    /// P-array followed by the four S-boxes: exactly `stateWords` words.
    private let buffer: UnsafeMutableBufferPointer<UInt32>
    /// `buffer.baseAddress`, the pointer every loop indexes.
    private var state: UnsafeMutablePointer<UInt32> { buffer.baseAddress.unsafelyUnwrapped }

    init() {
        buffer = .allocate(capacity: Self.stateWords)
        buffer.initialize(repeating: 0)
    }

    deinit {
        Sodium.wipe(buffer.baseAddress.unsafelyUnwrapped, count: Self.stateWords &* 4)
        buffer.deallocate()
    }

    /// Resets the state to the digits of π.
    private func reset() {
        BlowfishConstants.piWords.withUnsafeBufferPointer { pi in
            precondition(pi.count == Self.stateWords)
            state.update(from: pi.baseAddress.unsafelyUnwrapped, count: Self.stateWords)
        }
    }

    /// Ordinary 16-round Blowfish encryption of one 64-bit block (L, R).
    @inline(__always)
    private static func encrypt(_ l: inout UInt32, _ r: inout UInt32, _ p: UnsafeMutablePointer<UInt32>) {
        let s0 = p + 18, s1 = p + 274, s2 = p + 530, s3 = p + 786   // 18 + 256 · k
        @inline(__always) func f(_ x: UInt32) -> UInt32 {
            ((s0[Int(truncatingIfNeeded: x &>> 24)] &+ s1[Int(truncatingIfNeeded: (x &>> 16) & 0xff)])
                ^ s2[Int(truncatingIfNeeded: (x &>> 8) & 0xff)]) &+ s3[Int(truncatingIfNeeded: x & 0xff)]
        }
        var xl = l ^ p[0]
        var xr = r
        xr ^= f(xl) ^ p[1];  xl ^= f(xr) ^ p[2]
        xr ^= f(xl) ^ p[3];  xl ^= f(xr) ^ p[4]
        xr ^= f(xl) ^ p[5];  xl ^= f(xr) ^ p[6]
        xr ^= f(xl) ^ p[7];  xl ^= f(xr) ^ p[8]
        xr ^= f(xl) ^ p[9];  xl ^= f(xr) ^ p[10]
        xr ^= f(xl) ^ p[11]; xl ^= f(xr) ^ p[12]
        xr ^= f(xl) ^ p[13]; xl ^= f(xr) ^ p[14]
        xr ^= f(xl) ^ p[15]; xl ^= f(xr) ^ p[16]
        xr ^= p[17]
        l = xr
        r = xl
    }

    /// `expand_state(state, data, key)`: key words into P, then every P and S pair re-encrypted
    /// with the data words mixed in; the data stream carries on from P into S. `key` and `data`
    /// are 16 words each (64-byte inputs read cyclically, blowfish.c `Blowfish_stream2word`).
    private func expandState(data: UnsafePointer<UInt32>, key: UnsafePointer<UInt32>) {
        let p = state
        var i = 0
        while i < Self.pWords { p[i] ^= key[i & 15]; i &+= 1 }
        var l: UInt32 = 0, r: UInt32 = 0
        var j = 0
        i = 0
        while i < Self.stateWords {
            l ^= data[j & 15]; r ^= data[(j &+ 1) & 15]; j &+= 2
            Self.encrypt(&l, &r, p)
            p[i] = l; p[i &+ 1] = r
            i &+= 2
        }
    }

    /// `expand0_state(state, key)`: key words into P, then every pair re-encrypted
    /// without data mixing. The 9 P pairs change P as they go; for the 512 S pairs P is
    /// fixed and held in locals (see `PWords`).
    @inline(__always)
    private func expand0State(key: UnsafePointer<UInt32>) {
        let p = state
        var i = 0
        while i < Self.pWords { p[i] ^= key[i & 15]; i &+= 1 }
        var l: UInt32 = 0, r: UInt32 = 0
        i = 0
        while i < Self.pWords {
            Self.encrypt(&l, &r, p)
            p[i] = l; p[i &+ 1] = r
            i &+= 2
        }
        let fixedP = PWords(p)
        while i < Self.stateWords {
            Self.encrypt(&l, &r, fixedP, p)
            p[i] = l; p[i &+ 1] = r
            i &+= 2
        }
    }

    /// Blowfish with the P words held in locals. Loaded before the loop, LLVM ranks them
    /// low and xors each one into the waiting half while F is still being computed, leaving
    /// a single xor after F on every round's critical path (with P read inside the loop it
    /// emits F ⊕ P ⊕ half: one more dependent op per round, ≈10% slower, measured).
    @inline(__always)
    private static func encrypt(_ l: inout UInt32, _ r: inout UInt32, _ k: borrowing PWords, _ p: UnsafeMutablePointer<UInt32>) {
        let s0 = p + 18, s1 = p + 274, s2 = p + 530, s3 = p + 786   // 18 + 256 · k
        @inline(__always) func f(_ x: UInt32) -> UInt32 {
            ((s0[Int(truncatingIfNeeded: x &>> 24)] &+ s1[Int(truncatingIfNeeded: (x &>> 16) & 0xff)])
                ^ s2[Int(truncatingIfNeeded: (x &>> 8) & 0xff)]) &+ s3[Int(truncatingIfNeeded: x & 0xff)]
        }
        var xl = l ^ k.p0
        var xr = r
        xr ^= f(xl) ^ k.p1;  xl ^= f(xr) ^ k.p2
        xr ^= f(xl) ^ k.p3;  xl ^= f(xr) ^ k.p4
        xr ^= f(xl) ^ k.p5;  xl ^= f(xr) ^ k.p6
        xr ^= f(xl) ^ k.p7;  xl ^= f(xr) ^ k.p8
        xr ^= f(xl) ^ k.p9;  xl ^= f(xr) ^ k.p10
        xr ^= f(xl) ^ k.p11; xl ^= f(xr) ^ k.p12
        xr ^= f(xl) ^ k.p13; xl ^= f(xr) ^ k.p14
        xr ^= f(xl) ^ k.p15; xl ^= f(xr) ^ k.p16
        xr ^= k.p17
        l = xr
        r = xl
    }

    /// bhash(hpass, hsalt) → 32 bytes (bcrypt_pbkdf.c `bcrypt_hash`). Both inputs are 64-byte
    /// SHA-512 digests, given as 16 big-endian words; the output is written little-endian into
    /// `out`.
    func hash(passWords: UnsafePointer<UInt32>, saltWords: UnsafePointer<UInt32>, into out: UnsafeMutableRawPointer) {
        reset()
        expandState(data: saltWords, key: passWords)
        var round = 0
        while round < 64 {
            expand0State(key: saltWords)   // salt first …
            expand0State(key: passWords)   // … then the password (reverse of classic bcrypt)
            round &+= 1
        }
        // cdata = "OxychromaticBlowfishSwatDynamite" as 8 big-endian words, encrypted 64 times.
        let cdata = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 8)
        let c = cdata.baseAddress.unsafelyUnwrapped
        defer { Sodium.wipe(c, count: 32); cdata.deallocate() }
        _ = cdata.initialize(from: Self.magic)
        let p = state
        let fixedP = PWords(p)
        round = 0
        while round < 64 {
            Self.encrypt(&c[0], &c[1], fixedP, p)
            Self.encrypt(&c[2], &c[3], fixedP, p)
            Self.encrypt(&c[4], &c[5], fixedP, p)
            Self.encrypt(&c[6], &c[7], fixedP, p)
            round &+= 1
        }
        // Output words little-endian (byte 0 = low byte), as bcrypt_pbkdf.c `bcrypt_hash`
        // writes them.
        let o = out.assumingMemoryBound(to: UInt8.self)
        var k = 0
        while k < 8 {
            let w = c[k], at = k &* 4
            o[at] = UInt8(truncatingIfNeeded: w)
            o[at &+ 1] = UInt8(truncatingIfNeeded: w &>> 8)
            o[at &+ 2] = UInt8(truncatingIfNeeded: w &>> 16)
            o[at &+ 3] = UInt8(truncatingIfNeeded: w &>> 24)
            k &+= 1
        }
    }

    private static let magic: [UInt32] = [0x4F78_7963, 0x6872_6F6D, 0x6174_6963, 0x426C_6F77,
                                          0x6669_7368, 0x5377_6174, 0x4479_6E61, 0x6D69_7465]
}

/// A copy of the 18 P words, for the loops in which P does not change.
struct PWords {
    let p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17: UInt32

    @inline(__always)
    init(_ p: UnsafeMutablePointer<UInt32>) {
        p0 = p[0]; p1 = p[1]; p2 = p[2]; p3 = p[3]; p4 = p[4]; p5 = p[5]
        p6 = p[6]; p7 = p[7]; p8 = p[8]; p9 = p[9]; p10 = p[10]; p11 = p[11]
        p12 = p[12]; p13 = p[13]; p14 = p[14]; p15 = p[15]; p16 = p[16]; p17 = p[17]
    }
}
