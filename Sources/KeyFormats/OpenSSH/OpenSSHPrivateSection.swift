// The (decrypted) private section (PROTOCOL.key §3; docs/formats.md, "openssh-key-v1"): two
// equal check integers, the key record, its comment, then padding 1, 2, 3… up to the cipher's
// block size.
import SecureMemory

enum OpenSSHPrivateSection {
    /// Parses a decrypted section. Unequal check integers mean the passphrase was wrong when
    /// the file is encrypted (sshkey.c private2_decrypt), and a damaged file otherwise.
    static func parse(_ plaintext: UnsafeRawBufferPointer, encrypted: Bool) throws -> PrivateKey {
        var r = KeyDataReader(plaintext)
        let check1 = try r.readUInt32()
        let check2 = try r.readUInt32()
        guard check1 == check2 else {
            if encrypted { throw KeyFormatError.wrongPassphrase }
            throw KeyFormatError.invalid("the check integers of the private section differ (damaged file)")
        }
        let algorithm = try OpenSSHKeyRecord.read(&r)
        let commentBytes = try r.readStringView()
        let comment = String(decoding: commentBytes, as: UTF8.self)
        // Padding: byte i (1-based) has value i & 0xff (sshkey.c private2_check_padding).
        var i = 0
        while !r.isAtEnd {
            i += 1
            guard try r.readByte() == UInt8(truncatingIfNeeded: i) else {
                throw KeyFormatError.invalid("the padding after the private key is wrong (damaged file)")
            }
        }
        return PrivateKey(algorithm: algorithm, comment: comment)
    }

    /// Builds the plaintext section for `key`, padded to `blockSize`, with a random check
    /// integer (sshkey_private_to_blob2).
    static func build(_ key: PrivateKey, blockSize: Int) -> SecretBytes {
        var w = KeyDataWriter()
        let check = Sodium.randomBytes(count: 4)
        w.writeRaw(check)
        w.writeRaw(check)
        OpenSSHKeyRecord.write(key.algorithm, to: &w)
        w.writeString(key.comment)
        var i: UInt8 = 0
        while w.count % blockSize != 0 {
            i &+= 1
            w.writeByte(i)
        }
        return w.finish()
    }
}
