// One key as sshkey_private_serialize writes it, with no file around it and no comment:
// what OpenSSH's ssh-sk-helper takes and gives back for a security key.
public import SecureMemory

extension OpenSSHPrivateKey {
    /// The key's private record (`string keytype` and its private fields).
    public static func record(_ key: PrivateKey) -> SecretBytes {
        var w = KeyDataWriter()
        OpenSSHKeyRecord.write(key.algorithm, to: &w)
        return w.finish()
    }

    /// The key in `record`, which must hold it and nothing after it.
    public static func key(record: [UInt8], comment: String) throws -> PrivateKey {
        try record.withUnsafeBytes { buffer in
            var r = KeyDataReader(buffer)
            let algorithm = try OpenSSHKeyRecord.read(&r)
            guard r.isAtEnd else { throw KeyFormatError.invalid("the key record has bytes after the key") }
            return PrivateKey(algorithm: algorithm, comment: comment)
        }
    }
}
