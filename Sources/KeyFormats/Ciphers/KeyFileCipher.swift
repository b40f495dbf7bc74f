// The ciphers OpenSSH accepts in an openssh-key-v1 file (docs/formats.md, "Key-file ciphers";
// cipher.c `ciphers[]`): names, block, key, IV and tag sizes. The modes themselves come from
// OpenSSL (AES, 3DES) and libsodium (ChaCha20, Poly1305); see KeyFileCipher+Modes.swift.

public struct KeyFileCipher: Sendable, Equatable {
    enum Mode: Sendable, Equatable {
        case none
        case cbc
        case ctr
        case gcm
        case chachaPoly
    }

    /// The exact wire name (`strcmp` in OpenSSH: case-sensitive).
    public let name: String
    /// Padding unit of the private section.
    public let blockSize: Int
    public let keyLength: Int
    public let ivLength: Int
    /// AEAD tag appended after the encrypted section (16 for GCM and chacha20-poly1305).
    public let tagLength: Int
    let mode: Mode

    /// Bytes bcrypt_pbkdf must derive: key ‖ IV (sshkey.c private2_decrypt).
    public var derivedLength: Int { keyLength + ivLength }

    public var isNone: Bool { mode == .none }

    /// OpenSSH's default for `ssh-keygen -p` / new keys with a passphrase.
    public static let defaultForWriting = named("aes256-ctr")!

    public static let all: [KeyFileCipher] = [
        KeyFileCipher(name: "3des-cbc", blockSize: 8, keyLength: 24, ivLength: 8, tagLength: 0, mode: .cbc),
        KeyFileCipher(name: "aes128-cbc", blockSize: 16, keyLength: 16, ivLength: 16, tagLength: 0, mode: .cbc),
        KeyFileCipher(name: "aes192-cbc", blockSize: 16, keyLength: 24, ivLength: 16, tagLength: 0, mode: .cbc),
        KeyFileCipher(name: "aes256-cbc", blockSize: 16, keyLength: 32, ivLength: 16, tagLength: 0, mode: .cbc),
        KeyFileCipher(name: "aes128-ctr", blockSize: 16, keyLength: 16, ivLength: 16, tagLength: 0, mode: .ctr),
        KeyFileCipher(name: "aes192-ctr", blockSize: 16, keyLength: 24, ivLength: 16, tagLength: 0, mode: .ctr),
        KeyFileCipher(name: "aes256-ctr", blockSize: 16, keyLength: 32, ivLength: 16, tagLength: 0, mode: .ctr),
        KeyFileCipher(name: "aes128-gcm@openssh.com", blockSize: 16, keyLength: 16, ivLength: 12, tagLength: 16, mode: .gcm),
        KeyFileCipher(name: "aes256-gcm@openssh.com", blockSize: 16, keyLength: 32, ivLength: 12, tagLength: 16, mode: .gcm),
        KeyFileCipher(name: "chacha20-poly1305@openssh.com", blockSize: 8, keyLength: 64, ivLength: 0, tagLength: 16, mode: .chachaPoly),
        // `none`: the IV length defaults to the block size, so with kdf bcrypt 8 bytes are
        // derived (and ignored) — the odd `-Z none -N pass` case (docs/formats.md,
        // "openssh-key-v1").
        KeyFileCipher(name: "none", blockSize: 8, keyLength: 0, ivLength: 8, tagLength: 0, mode: .none),
    ]

    /// The cipher called `name`, or nil when OpenSSH would not accept it.
    public static func named(_ name: String) -> KeyFileCipher? { all.first { $0.name == name } }
}
