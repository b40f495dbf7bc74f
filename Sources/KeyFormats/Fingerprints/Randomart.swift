// The "drunken bishop" randomart of `ssh-keygen -lv` (sshkey.c fingerprint_randomart).
// STUB — being written.

extension PublicKey {
    /// The 17×9 picture `ssh-keygen -lv` prints, byte for byte, over the SHA-256 fingerprint.
    public var randomart: String { "+---[\(shortTypeName) \(bits)]----+\n+----[SHA256]-----+" }
}
