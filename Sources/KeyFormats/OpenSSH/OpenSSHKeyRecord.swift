// One key inside the private section (sshkey.c sshkey_private_deserialize /
// sshkey_private_serialize): `string keytype` and the type-specific private fields, read into a
// PrivateKey and written back the same way.
import SecureMemory

enum OpenSSHKeyRecord {
    static let dsaUnsupported = KeyFormatError.unsupported(
        "DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key")

    static func read(_ r: inout KeyDataReader) throws -> PrivateKeyAlgorithm {
        let type = try r.readText("the private key type")
        switch type {
        case PublicKey.ed25519Type:
            // string pk (32) · string sk (64 = seed ‖ pk)
            let pk = try r.readPublicString()
            guard pk.count == 32 else { throw KeyFormatError.invalid("the Ed25519 public key is \(pk.count) bytes, not 32") }
            let sk = try r.readStringView()
            guard sk.count == 64 else { throw KeyFormatError.invalid("the Ed25519 private key is \(sk.count) bytes, not 64") }
            guard Array(sk[32..<64]) == pk else {
                throw KeyFormatError.invalid("the Ed25519 private key does not end with its public key (damaged file)")
            }
            return .ed25519(seed: SecretBytes(copying: UnsafeRawBufferPointer(rebasing: sk[0..<32])), publicKey: pk)

        case let t where ECCurve.allCases.contains { $0.keyType == t }:
            // string curve · string Q · mpint d
            let curve = ECCurve.allCases.first { $0.keyType == t }!
            let q = try readCurveAndPoint(curve, &r)
            let d = try r.readSecretMPInt("the ECDSA private scalar")
            guard d.count >= 1, d.count <= curve.scalarLength else {
                throw KeyFormatError.invalid("the ECDSA private scalar has the wrong size for \(curve.rawValue)")
            }
            return .ecdsa(curve: curve, point: q, scalar: d)

        case PublicKey.rsaType:
            // mpint n · e · d · iqmp · p · q  (this order, not the public blob's e, n)
            let n = try r.readPublicMPInt("the RSA modulus")
            let e = try r.readPublicMPInt("the RSA public exponent")
            let d = try r.readSecretMPInt("the RSA private exponent")
            let iqmp = try r.readSecretMPInt("the RSA coefficient iqmp")
            let p = try r.readSecretMPInt("the RSA prime p")
            let q = try r.readSecretMPInt("the RSA prime q")
            let bits = PublicKey.bitLength(n)
            guard bits >= 1024 else { throw KeyFormatError.invalid("RSA key of \(bits) bits is too small (OpenSSH requires at least 1024)") }
            guard let last = e.last, last & 1 == 1 else { throw KeyFormatError.invalid("the RSA public exponent is not odd") }
            for (value, name) in [(d, "d"), (iqmp, "iqmp"), (p, "p"), (q, "q")] where value.isEmpty {
                throw KeyFormatError.invalid("the RSA private value \(name) is zero (damaged file)")
            }
            return .rsa(modulus: n, exponent: e, d: d, iqmp: iqmp, p: p, q: q)

        case PublicKey.skECDSAType:
            // string curve · string Q · string application · byte flags · string key_handle · string reserved
            let q = try readCurveAndPoint(.p256, &r)
            let application = try r.readText("the security key application")
            let flags = try r.readByte()
            let handle = try r.readPublicString()
            let reserved = try r.readPublicString()
            return .skECDSA(curve: .p256, point: q, application: application, flags: flags, keyHandle: handle, reserved: reserved)

        case PublicKey.skEd25519Type:
            // string pk · string application · byte flags · string key_handle · string reserved
            let pk = try r.readPublicString()
            guard pk.count == 32 else { throw KeyFormatError.invalid("the Ed25519 public key is \(pk.count) bytes, not 32") }
            let application = try r.readText("the security key application")
            let flags = try r.readByte()
            let handle = try r.readPublicString()
            let reserved = try r.readPublicString()
            return .skEd25519(publicKey: pk, application: application, flags: flags, keyHandle: handle, reserved: reserved)

        case PublicKey.dsaType:
            throw dsaUnsupported
        case let t where t.hasSuffix("-cert-v01@openssh.com"):
            throw KeyFormatError.unsupported("private keys stored with their certificate are not supported")
        default:
            throw KeyFormatError.unsupported("unknown or unsupported key type '\(type.prefix(64))'")
        }
    }

    private static func readCurveAndPoint(_ curve: ECCurve, _ r: inout KeyDataReader) throws -> [UInt8] {
        let name = try r.readText("the curve name")
        guard name == curve.rawValue else {
            throw KeyFormatError.invalid("curve '\(name.prefix(32))' does not match key type \(curve.keyType)")
        }
        let q = try r.readPublicString()
        guard q.count == curve.pointLength, q.first == 0x04 else {
            throw KeyFormatError.invalid("the \(curve.rawValue) public point is not an uncompressed point of \(curve.pointLength) bytes")
        }
        return q
    }

    static func write(_ algorithm: PrivateKeyAlgorithm, to w: inout KeyDataWriter) {
        switch algorithm {
        case .ed25519(let seed, let pk):
            w.writeString(PublicKey.ed25519Type)
            w.writeString(pk)
            w.writeUInt32(64)
            w.writeRaw(seed)
            w.writeRaw(pk)
        case .ecdsa(let curve, let q, let d):
            w.writeString(curve.keyType)
            w.writeString(curve.rawValue)
            w.writeString(q)
            w.writeMPInt(d)
        case .rsa(let n, let e, let d, let iqmp, let p, let q):
            w.writeString(PublicKey.rsaType)
            w.writeMPInt(n)
            w.writeMPInt(e)
            w.writeMPInt(d)
            w.writeMPInt(iqmp)
            w.writeMPInt(p)
            w.writeMPInt(q)
        case .skECDSA(let curve, let q, let application, let flags, let handle, let reserved):
            w.writeString(PublicKey.skECDSAType)
            w.writeString(curve.rawValue)
            w.writeString(q)
            w.writeString(application)
            w.writeByte(flags)
            w.writeString(handle)
            w.writeString(reserved)
        case .skEd25519(let pk, let application, let flags, let handle, let reserved):
            w.writeString(PublicKey.skEd25519Type)
            w.writeString(pk)
            w.writeString(application)
            w.writeByte(flags)
            w.writeString(handle)
            w.writeString(reserved)
        }
    }
}
