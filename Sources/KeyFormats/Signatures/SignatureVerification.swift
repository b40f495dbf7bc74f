// Verifies an SSH signature blob (`string algorithm`, `string signature`, and for sk-*
// keys `byte flags`, `uint32 counter`) over a message with a public key (ssh-ed25519.c,
// ssh-ecdsa.c, ssh-rsa.c, ssh-ed25519-sk.c, ssh-ecdsa-sk.c). The algorithm must belong
// to the key's type:
//   ssh-ed25519                 libsodium crypto_sign_verify_detached (64-byte signature)
//   ecdsa-sha2-nistp256/384/521 OpenSSL, SHA-256/384/512; signature = mpint r ‖ mpint s
//   rsa-sha2-256/512, ssh-rsa   OpenSSL PKCS#1 v1.5 with SHA-256/512/SHA-1
//   sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com: the authenticator
//     signed SHA-256(application) ‖ flags ‖ counter ‖ SHA-256(message).
//   ssh-dss                     OpenSSL DSA with SHA-1; signature = r ‖ s, 20 bytes each
// Used for certificate signatures and for the host key's signature in the agent's
// session-bind@openssh.com.
internal import CSodium
import SecureMemory

extension PublicKey {
    /// True when `signatureBlob` is this key's valid signature over `message`. Malformed
    /// blobs are simply not valid.
    public func verifies(signatureBlob: [UInt8], over message: [UInt8]) -> Bool {
        var r = SSHReader(signatureBlob)
        guard let algorithm = try? r.readText(), let signature = try? r.readString() else { return false }
        switch self.algorithm {
        case .ed25519(let pk):
            guard algorithm == PublicKey.ed25519Type, r.isAtEnd else { return false }
            return Self.ed25519(publicKey: pk, signature: signature, message: message)
        case .ecdsa(let curve, _):
            guard algorithm == curve.keyType, r.isAtEnd else { return false }
            return SignatureVerifier.ecdsa(self, curve: curve, sshSignature: signature, message: message)
        case .rsa(_, let n):
            guard r.isAtEnd, let digest = SignatureVerifier.RSADigest(algorithm: algorithm) else { return false }
            return SignatureVerifier.rsa(self, modulus: n, digest: digest, signature: signature, message: message)
        case .skEd25519(let pk, let application):
            guard algorithm == PublicKey.skEd25519Type, let flags = try? r.readByte(), let counter = try? r.readUInt32(), r.isAtEnd else { return false }
            let signed = Self.skSignedData(application: application, flags: flags, counter: counter, message: message)
            return Self.ed25519(publicKey: pk, signature: signature, message: signed)
        case .skECDSA(let curve, _, let application):
            guard algorithm == PublicKey.skECDSAType, let flags = try? r.readByte(), let counter = try? r.readUInt32(), r.isAtEnd else { return false }
            let signed = Self.skSignedData(application: application, flags: flags, counter: counter, message: message)
            return SignatureVerifier.ecdsa(self, curve: curve, sshSignature: signature, message: signed)
        case .dsa:
            guard algorithm == PublicKey.dsaType, r.isAtEnd else { return false }
            return SignatureVerifier.dsa(self, signature: signature, message: message)
        }
    }

    private static func ed25519(publicKey: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool {
        guard publicKey.count == 32, signature.count == 64 else { return false }
        Sodium.initialize()
        return signature.withUnsafeBufferPointer { s in
            message.withUnsafeBufferPointer { m in
                publicKey.withUnsafeBufferPointer { k in
                    crypto_sign_verify_detached(s.baseAddress!, m.baseAddress, UInt64(m.count), k.baseAddress!) == 0
                }
            }
        }
    }

    /// What a FIDO authenticator signs (PROTOCOL.u2f).
    private static func skSignedData(application: String, flags: UInt8, counter: UInt32, message: [UInt8]) -> [UInt8] {
        var w = SSHWriter()
        w.writeRaw(Digest.sha256(Array(application.utf8)))
        w.writeByte(flags)
        w.writeUInt32(counter)
        w.writeRaw(Digest.sha256(message))
        return w.bytes
    }
}
