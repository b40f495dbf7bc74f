// Cipher key, IV and MAC key of a .ppk file (docs/formats.md, "PuTTY .ppk"; Argon2 is RFC 9106).
//   v3 encrypted: Argon2 (libsodium crypto_pwhash, version 0x13) → 80 bytes =
//                 AES-256 key (32) ‖ IV (16) ‖ MAC key (32).
//   v3 plain:     MAC key is empty.
//   v2:           key = (SHA-1(00000000 ‖ pass) ‖ SHA-1(00000001 ‖ pass))[0..<32], IV = 0,
//                 MAC key = SHA-1("putty-private-key-file-mac-key" ‖ pass) (pass empty if plain).
internal import CSodium
internal import COpenSSL
import SecureMemory

struct PPKKeys {
    let cipherKey: SecretBytes
    let iv: SecretBytes
    let macKey: SecretBytes
}

enum PPKKeyDerivation {
    /// hostbook's ceilings: what puttygen writes. Its `--ppk-param` defaults are
    /// `memory=8192` (KiB) and `time=100` (ms), for which it counts the passes that take
    /// 100 ms on the machine saving the key (5 on this project's 2-core test machine; 64
    /// leaves room for a machine ten times as fast). Anything above is refused before any
    /// passphrase is asked for, so a hostile file cannot make an import take gigabytes of
    /// memory or minutes of CPU (1 GiB × 1000 passes was accepted before).
    static let maximumMemoryKiB: UInt64 = 8192
    static let maximumPasses: UInt64 = 64
    /// How the refusals say to fix the file: re-saving uses puttygen's defaults.
    static let resaveHint = "re-save the key with puttygen ('puttygen KEY.ppk -o NEW.ppk' uses its defaults)"

    /// Refuses what libsodium cannot compute, before any passphrase is asked for.
    static func checkSupported(_ p: PPKEnvelope.Argon2Parameters) throws {
        switch p.flavour {
        case .argon2d:
            throw KeyFormatError.unsupported("Argon2d is not supported (libsodium has no Argon2d); re-save the key with puttygen using Argon2id")
        case .argon2id, .argon2i: break
        }
        guard p.parallelism == 1 else {
            throw KeyFormatError.unsupported("Argon2 parallelism \(p.parallelism) is not supported (libsodium computes only parallelism 1); re-save the key with puttygen --ppk-param parallelism=1")
        }
        guard p.salt.count == Int(crypto_pwhash_saltbytes()) else {
            throw KeyFormatError.unsupported("an Argon2 salt of \(p.salt.count) bytes is not supported (libsodium needs \(crypto_pwhash_saltbytes()))")
        }
        guard p.memory >= 8 else { throw KeyFormatError.invalid("Argon2-Memory \(p.memory) KiB is below Argon2's minimum of 8") }
        guard p.memory <= maximumMemoryKiB else {
            throw KeyFormatError.unsupported("the key asks Argon2 for \(p.memory) KiB of memory, more than puttygen writes (\(maximumMemoryKiB) KiB); \(resaveHint)")
        }
        guard p.passes >= 1 else { throw KeyFormatError.invalid("Argon2-Passes is 0") }
        guard p.passes <= maximumPasses else {
            throw KeyFormatError.unsupported("the key asks Argon2 for \(p.passes) passes, more than puttygen writes (at most \(maximumPasses)); \(resaveHint)")
        }
        if p.flavour == .argon2i, p.passes < UInt64(crypto_pwhash_argon2i_opslimit_min()) {
            throw KeyFormatError.unsupported("Argon2i with \(p.passes) passes is not supported (libsodium needs at least \(crypto_pwhash_argon2i_opslimit_min())); re-save the key with puttygen using Argon2id")
        }
    }

    static func v3(_ p: PPKEnvelope.Argon2Parameters, passphrase: SecretBytes) throws -> PPKKeys {
        try checkSupported(p)
        Sodium.initialize()
        let output = SecretBytes(count: 80)
        let algorithm = p.flavour == .argon2id ? crypto_pwhash_alg_argon2id13() : crypto_pwhash_alg_argon2i13()
        let status = output.withUnsafeMutableBytes { out in
            passphrase.withUnsafeBytes { pass in
                p.salt.withUnsafeBufferPointer { salt in
                    // libsodium wants a non-null pointer even for an empty passphrase.
                    let empty: CChar = 0
                    return withUnsafePointer(to: empty) { placeholder in
                        crypto_pwhash(out.baseAddress!.assumingMemoryBound(to: UInt8.self), 80,
                                      pass.baseAddress?.assumingMemoryBound(to: CChar.self) ?? placeholder,
                                      UInt64(pass.count), salt.baseAddress!, p.passes, Int(p.memory) * 1024, algorithm)
                    }
                }
            }
        }
        guard status == 0 else {
            throw KeyFormatError.invalid("Argon2 key derivation failed (out of memory for \(p.memory) KiB?)")
        }
        return PPKKeys(cipherKey: output.slice(0..<32), iv: output.slice(32..<48), macKey: output.slice(48..<80))
    }

    static func v3Unencrypted() -> PPKKeys {
        PPKKeys(cipherKey: SecretBytes(count: 0), iv: SecretBytes(count: 0), macKey: SecretBytes(count: 0))
    }

    static func v2(passphrase: SecretBytes?) -> PPKKeys {
        let pass = passphrase ?? SecretBytes(count: 0)
        let first = sha1(prefix: [0, 0, 0, 0], pass)
        let second = sha1(prefix: [0, 0, 0, 1], pass)
        let cipherKey = first.appending(second).slice(0..<32)
        let macKey = sha1(prefix: Array("putty-private-key-file-mac-key".utf8), pass)
        return PPKKeys(cipherKey: cipherKey, iv: SecretBytes(count: 16), macKey: macKey)
    }

    /// SHA-1(prefix ‖ secret), hashed in secure memory.
    private static func sha1(prefix: [UInt8], _ secret: SecretBytes) -> SecretBytes {
        let input = SecretBytes(copying: prefix).appending(secret)
        let out = SecretBytes(count: 20)
        var length: UInt32 = 0
        input.withUnsafeBytes { i in
            out.withUnsafeMutableBytes { o in
                _ = EVP_Digest(i.baseAddress, i.count, o.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, EVP_sha1(), nil)
            }
        }
        return out
    }
}
