// The decrypted private blob of a .ppk file (docs/formats.md, "PuTTY .ppk"): the algorithm's
// secret fields only, in PuTTY's order, followed by padding that is not interpreted
// (the MAC already covered it).
//   ssh-rsa:      mpint d · mpint p · mpint q · mpint iqmp   (not OpenSSH's d, iqmp, p, q)
//   ecdsa-sha2-*: mpint d
//   ssh-ed25519:  string seed (32 bytes)
import SecureMemory

enum PPKPrivateBlob {
    static func key(publicKey: PublicKey, privateBlob: SecretBytes) throws -> PrivateKeyAlgorithm {
        try privateBlob.withUnsafeBytes { buffer in
            var r = KeyDataReader(buffer)
            let algorithm: PrivateKeyAlgorithm
            switch publicKey.algorithm {
            case .rsa(let e, let n):
                let d = try r.readSecretMPInt("the RSA private exponent")
                let p = try r.readSecretMPInt("the RSA prime p")
                let q = try r.readSecretMPInt("the RSA prime q")
                let iqmp = try r.readSecretMPInt("the RSA coefficient iqmp")
                algorithm = .rsa(modulus: n, exponent: e, d: d, iqmp: iqmp, p: p, q: q)
            case .ecdsa(let curve, let point):
                let d = try r.readSecretMPInt("the ECDSA private scalar")
                guard d.count <= curve.scalarLength else {
                    throw KeyFormatError.invalid("the ECDSA private scalar is longer than the \(curve.rawValue) order")
                }
                algorithm = .ecdsa(curve: curve, point: point, scalar: d)
            case .ed25519(let pk):
                let seed = try r.readStringView()
                guard seed.count == 32 else {
                    throw KeyFormatError.invalid("the Ed25519 private key must be a 32-byte seed, not \(seed.count) bytes")
                }
                algorithm = .ed25519(seed: SecretBytes(copying: seed), publicKey: pk)
            case .dsa:
                throw KeyFormatError.unsupported("DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key")
            case .skEd25519, .skECDSA:
                throw KeyFormatError.unsupported("PuTTY does not store security-key (sk-*) keys")
            }
            // What is left is padding to the cipher block size (at most 15 bytes).
            guard r.remaining < 16 else {
                throw KeyFormatError.invalid("the private key has \(r.remaining) unexpected bytes after its fields")
            }
            return algorithm
        }
    }
}
