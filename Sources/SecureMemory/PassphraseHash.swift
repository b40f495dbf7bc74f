// A passphrase kept only as a salted hash, for a passphrase that is only ever compared
// and never used for anything else (the standing agent's `ssh-add -x` lock). libsodium's
// crypto_pwhash (Argon2id, its interactive limits) with a random salt: whoever reads the
// process's memory finds no passphrase, which people reuse, only a hash that costs an
// Argon2id run per guess. ssh-agent.c keeps its lock the same way (a salted bcrypt_pbkdf
// hash, compared with timingsafe_bcmp).
internal import CSodium

public final class PassphraseHash: Sendable {
    /// The derived hash's length.
    static let length = 32

    let salt: [UInt8]
    let hash: SecretBytes

    /// Hashes `passphrase` with a fresh random salt. nil for an empty passphrase (ssh-agent
    /// refuses to lock with one) or when libsodium cannot get the memory Argon2id needs.
    public init?(hashing passphrase: SecretBytes) {
        Sodium.initialize()
        let salt = Sodium.randomBytes(count: crypto_pwhash_saltbytes())
        guard let hash = Self.derive(passphrase, salt: salt) else { return nil }
        self.salt = salt
        self.hash = hash
    }

    /// True when `passphrase` hashes to the stored hash; compared in constant time.
    public func matches(_ passphrase: SecretBytes) -> Bool {
        guard let candidate = Self.derive(passphrase, salt: salt) else { return false }
        return candidate.constantTimeEquals(hash)
    }

    private static func derive(_ passphrase: SecretBytes, salt: [UInt8]) -> SecretBytes? {
        guard !passphrase.isEmpty else { return nil }
        let out = SecretBytes(count: length)
        let status = out.withUnsafeMutableBytes { o in
            passphrase.withUnsafeBytes { p in
                salt.withUnsafeBufferPointer { s in
                    crypto_pwhash(o.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(o.count),
                                  p.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(p.count), s.baseAddress!,
                                  UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive(),
                                  crypto_pwhash_alg_argon2id13())
                }
            }
        }
        return status == 0 ? out : nil
    }
}

extension PassphraseHash: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "PassphraseHash(redacted)" }
    public var debugDescription: String { description }
}
