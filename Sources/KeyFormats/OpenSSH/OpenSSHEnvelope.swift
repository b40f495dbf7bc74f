// The openssh-key-v1 binary envelope (PROTOCOL.key §1; docs/formats.md, "openssh-key-v1"):
// magic, cipher, KDF and its options, the public key, then the encrypted section and its AEAD
// tag. Everything structural is checked here, before any cryptography, as sshkey.c
// sshkey_parse_private2 and private2_decrypt check it.
import SecureMemory

enum OpenSSHKDF: Equatable {
    case none
    /// bcrypt_pbkdf with `salt` and `rounds` (PROTOCOL.key §2).
    case bcrypt(salt: [UInt8], rounds: Int)

    var name: String {
        switch self { case .none: "none"; case .bcrypt: "bcrypt" }
    }
}

struct OpenSSHEnvelope {
    /// "openssh-key-v1" followed by one NUL byte.
    static let magic: [UInt8] = Array("openssh-key-v1".utf8) + [0]
    let cipher: KeyFileCipher
    let kdf: OpenSSHKDF
    let publicKey: PublicKey
    /// Where the encrypted section and the tag sit in the blob.
    let sectionRange: Range<Int>
    let tagRange: Range<Int>

    var isEncrypted: Bool { kdf != .none }

    static func parse(_ blob: UnsafeRawBufferPointer) throws -> OpenSSHEnvelope {
        var r = KeyDataReader(blob)
        guard blob.count >= magic.count, Array(try r.readView(magic.count)) == magic else {
            throw KeyFormatError.invalid("the key data does not start with 'openssh-key-v1' (damaged file)")
        }
        let cipherName = try r.readText("the cipher name")
        guard let cipher = KeyFileCipher.named(cipherName) else {
            throw KeyFormatError.unsupported("the key is encrypted with '\(cipherName.prefix(64))', a cipher OpenSSH does not know")
        }
        let kdfName = try r.readText("the KDF name")
        let kdfOptions = try r.readStringView()
        let kdf: OpenSSHKDF
        switch kdfName {
        case "none":
            guard cipher.isNone else {
                throw KeyFormatError.invalid("the file says cipher \(cipher.name) but no KDF (damaged file)")
            }
            guard kdfOptions.isEmpty else { throw KeyFormatError.invalid("the KDF 'none' has options (damaged file)") }
            kdf = .none
        case "bcrypt":
            var o = KeyDataReader(kdfOptions)
            let salt = try o.readPublicString()
            let rounds = try o.readUInt32()
            guard o.isAtEnd else { throw KeyFormatError.invalid("the bcrypt options have trailing bytes (damaged file)") }
            guard !salt.isEmpty else { throw KeyFormatError.invalid("the bcrypt salt is empty (damaged file)") }
            guard rounds >= 1 else { throw KeyFormatError.invalid("the bcrypt rounds are 0 (damaged file)") }
            kdf = .bcrypt(salt: salt, rounds: Int(rounds))
        default:
            throw KeyFormatError.unsupported("the key uses the KDF '\(kdfName.prefix(64))'; OpenSSH knows only bcrypt")
        }
        let keyCount = try r.readUInt32()
        guard keyCount == 1 else {
            throw KeyFormatError.invalid("the file holds \(keyCount) keys; an OpenSSH key file holds exactly one")
        }
        let publicKey = try PublicKey(blob: try r.readPublicString())
        let length = Int(try r.readUInt32())
        guard length >= cipher.blockSize, length % cipher.blockSize == 0 else {
            throw KeyFormatError.invalid("the private section is \(length) bytes, not a whole number of \(cipher.blockSize)-byte blocks (damaged file)")
        }
        guard r.remaining == length + cipher.tagLength else {
            if r.remaining < length + cipher.tagLength {
                throw KeyFormatError.invalid("the private section is cut short (the file is truncated)")
            }
            throw KeyFormatError.invalid("the key data has \(r.remaining - length - cipher.tagLength) unexpected trailing bytes")
        }
        let start = r.offset
        return OpenSSHEnvelope(cipher: cipher, kdf: kdf, publicKey: publicKey,
                               sectionRange: start..<start + length,
                               tagRange: start + length..<start + length + cipher.tagLength)
    }

    /// Writes the envelope around an already-encrypted section.
    static func write(cipher: KeyFileCipher, kdf: OpenSSHKDF, publicKey: PublicKey,
                      section: UnsafeRawBufferPointer, tag: [UInt8]) -> SecretBytes {
        var w = KeyDataWriter()
        w.writeRaw(magic)
        w.writeString(cipher.name)
        w.writeString(kdf.name)
        switch kdf {
        case .none:
            w.writeString([UInt8]())
        case .bcrypt(let salt, let rounds):
            var o = SSHWriter()
            o.writeString(salt)
            o.writeUInt32(UInt32(rounds))
            w.writeString(o.bytes)
        }
        w.writeUInt32(1)
        w.writeString(publicKey.blob)
        w.writeUInt32(UInt32(section.count))
        w.writeRaw(section)
        w.writeRaw(tag)
        return w.finish()
    }
}
