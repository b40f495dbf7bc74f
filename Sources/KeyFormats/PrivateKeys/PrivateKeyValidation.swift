// Consistency checks every private key passes before hostbook accepts it (sshkey.c, Go's
// ssh/keys.go): the public half equals the one derived from the private part.
// STUB — being written (Ed25519 seed → public key via libsodium; ECDSA d·G = Q and scalar
// range, RSA n = p·q, e·d ≡ 1, iqmp·q ≡ 1 mod p via OpenSSL).

extension PrivateKey {
    /// Throws `.invalid` with the reason when the key is inconsistent.
    public func validate() throws {}
}
