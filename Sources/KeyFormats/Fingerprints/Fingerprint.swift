// Fingerprints exactly as `ssh-keygen -l` prints them (sshkey.c sshkey_fingerprint). The input is
// always the plain public key blob; a certificate's fingerprint is its embedded key's.

extension PublicKey {
    /// `SHA256:` + unpadded base64 of SHA-256(blob), 43 characters after the prefix.
    public var sha256Fingerprint: String { "SHA256:" + Base64.encode(Digest.sha256(blob), padded: false) }

    /// `MD5:` + lowercase colon-separated hex of MD5(blob).
    public var md5Fingerprint: String {
        "MD5:" + Digest.md5(blob).map { hex2($0) }.joined(separator: ":")
    }
}

@inline(__always)
func hex2(_ b: UInt8) -> String {
    let digits: [Character] = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
}
