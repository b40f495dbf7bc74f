// A public key as SSH puts it on the wire (docs/formats.md, "Key blobs"; sshkey.c
// sshkey_from_blob): the canonical blob plus the algorithm's parsed fields. Equality is
// equality of blobs, as in sshkey_equal.

public enum PublicKeyAlgorithm: Hashable, Sendable {
    case ed25519(publicKey: [UInt8])
    case ecdsa(curve: ECCurve, point: [UInt8])
    case rsa(exponent: [UInt8], modulus: [UInt8])
    case dsa(p: [UInt8], q: [UInt8], g: [UInt8], y: [UInt8])
    case skEd25519(publicKey: [UInt8], application: String)
    case skECDSA(curve: ECCurve, point: [UInt8], application: String)
}

public enum ECCurve: String, CaseIterable, Hashable, Sendable {
    case p256 = "nistp256", p384 = "nistp384", p521 = "nistp521"

    public var keyType: String { "ecdsa-sha2-\(rawValue)" }
    public var bits: Int { switch self { case .p256: 256; case .p384: 384; case .p521: 521 } }
    /// Length of an uncompressed SEC1 point `04 ‖ X ‖ Y`.
    public var pointLength: Int { 1 + 2 * ((bits + 7) / 8) }
    /// Length of the private scalar in fixed-width encodings (SEC1, PPK).
    public var scalarLength: Int { (bits + 7) / 8 }
}

public struct PublicKey: Hashable, Sendable {
    /// Key type wire name, e.g. `ssh-ed25519`.
    public let type: String
    /// The canonical wire blob (what is base64-encoded in `.pub` and known_hosts).
    public let blob: [UInt8]
    public let algorithm: PublicKeyAlgorithm

    public static let ed25519Type = "ssh-ed25519"
    public static let rsaType = "ssh-rsa"
    public static let dsaType = "ssh-dss"
    public static let skEd25519Type = "sk-ssh-ed25519@openssh.com"
    public static let skECDSAType = "sk-ecdsa-sha2-nistp256@openssh.com"

    /// Parses a public key blob (sshkey_from_blob): the type is read from the blob, the
    /// fields checked, and no trailing bytes are allowed. Certificates are not plain keys:
    /// use `Certificate` for `*-cert-v01@openssh.com` blobs. The key is re-encoded from its
    /// fields (mpints minimal, RFC 4251 §5), so `blob` is canonical: an RSA key written with
    /// superfluous leading zero bytes is the same key, with the same fingerprint, as OpenSSH
    /// (sshkey_equal_public compares the numbers; ssh-keygen fingerprints the re-encoding).
    public init(blob: [UInt8]) throws {
        var r = SSHReader(blob)
        let type = try r.readText("key type")
        let algorithm = try Self.readFields(type: type, from: &r)
        try r.expectEnd("the public key")
        self.init(algorithm)
    }

    /// Builds a key from its fields, producing the canonical blob.
    public init(_ algorithm: PublicKeyAlgorithm) {
        var w = SSHWriter()
        let type: String
        switch algorithm {
        case .ed25519(let pk):
            type = Self.ed25519Type
            w.writeString(type); w.writeString(pk)
        case .ecdsa(let curve, let q):
            type = curve.keyType
            w.writeString(type); w.writeString(curve.rawValue); w.writeString(q)
        case .rsa(let e, let n):
            type = Self.rsaType
            w.writeString(type); w.writeMPInt(unsigned: e); w.writeMPInt(unsigned: n)
        case .dsa(let p, let q, let g, let y):
            type = Self.dsaType
            w.writeString(type)
            for v in [p, q, g, y] { w.writeMPInt(unsigned: v) }
        case .skEd25519(let pk, let app):
            type = Self.skEd25519Type
            w.writeString(type); w.writeString(pk); w.writeString(app)
        case .skECDSA(let curve, let q, let app):
            type = Self.skECDSAType
            w.writeString(type); w.writeString(curve.rawValue); w.writeString(q); w.writeString(app)
        }
        self.type = type
        self.blob = w.bytes
        self.algorithm = algorithm
    }

    /// Reads the fields that follow the type name in a blob; shared with the private-key
    /// and certificate parsers, which embed the same fields.
    public static func readFields(type: String, from r: inout SSHReader) throws -> PublicKeyAlgorithm {
        switch type {
        case ed25519Type:
            let pk = try r.readString()
            guard pk.count == 32 else { throw KeyFormatError.invalid("an Ed25519 public key must be 32 bytes, not \(pk.count)") }
            return .ed25519(publicKey: pk)
        case rsaType:
            let e = try r.readMPInt()
            let n = try r.readMPInt()
            let bits = bitLength(n)
            guard bits >= 1024 else { throw KeyFormatError.invalid("RSA key of \(bits) bits is too small (OpenSSH requires at least 1024)") }
            // No test of the exponent: OpenSSH 9.2 loads any (an even one too), so a
            // known_hosts line with one is an entry to ssh, and must be one here.
            return .rsa(exponent: e, modulus: n)
        case dsaType:
            let p = try r.readMPInt(), q = try r.readMPInt(), g = try r.readMPInt(), y = try r.readMPInt()
            return .dsa(p: p, q: q, g: g, y: y)
        case skEd25519Type:
            let pk = try r.readString()
            guard pk.count == 32 else { throw KeyFormatError.invalid("an Ed25519 public key must be 32 bytes, not \(pk.count)") }
            let app = try r.readText("security key application")
            return .skEd25519(publicKey: pk, application: app)
        case skECDSAType:
            let (curve, q) = try readCurveAndPoint(expected: .p256, from: &r)
            let app = try r.readText("security key application")
            return .skECDSA(curve: curve, point: q, application: app)
        default:
            if let curve = ECCurve.allCases.first(where: { $0.keyType == type }) {
                let (c, q) = try readCurveAndPoint(expected: curve, from: &r)
                return .ecdsa(curve: c, point: q)
            }
            if type.hasSuffix("-cert-v01@openssh.com") {
                throw KeyFormatError.invalid("\(type) is a certificate, not a plain public key")
            }
            throw KeyFormatError.unsupported("unknown or unsupported key type '\(type.prefix(64))'")
        }
    }

    private static func readCurveAndPoint(expected: ECCurve, from r: inout SSHReader) throws -> (ECCurve, [UInt8]) {
        let name = try r.readText("curve name")
        guard name == expected.rawValue else {
            throw KeyFormatError.invalid("curve '\(name.prefix(32))' does not match key type \(expected.keyType)")
        }
        let q = try r.readString()
        guard q.count == expected.pointLength, q.first == 0x04 else {
            throw KeyFormatError.invalid("the \(expected.rawValue) public point is not an uncompressed point of \(expected.pointLength) bytes")
        }
        // A point OpenSSH would refuse is no key (ssh skips such a known_hosts line).
        try ECGroup(expected).validatePublicPoint(q)
        return (expected, q)
    }

    /// Key size in bits as `ssh-keygen -l` prints it.
    public var bits: Int {
        switch algorithm {
        case .ed25519, .skEd25519: 256
        case .ecdsa(let c, _), .skECDSA(let c, _, _): c.bits
        case .rsa(_, let n): Self.bitLength(n)
        case .dsa(let p, _, _, _): Self.bitLength(p)
        }
    }

    /// True for keys whose private half lives on a FIDO security key.
    public var needsSecurityKey: Bool {
        switch algorithm { case .skEd25519, .skECDSA: true; default: false }
    }

    /// The name ssh-keygen prints in parentheses after a fingerprint: ED25519, ECDSA, RSA,
    /// DSA, ED25519-SK, ECDSA-SK.
    public var shortTypeName: String {
        switch algorithm {
        case .ed25519: "ED25519"
        case .ecdsa: "ECDSA"
        case .rsa: "RSA"
        case .dsa: "DSA"
        case .skEd25519: "ED25519-SK"
        case .skECDSA: "ECDSA-SK"
        }
    }

    /// base64 of the blob, as in `.pub` files and known_hosts.
    public var base64: String { Base64.encode(blob) }

    /// `type base64[ comment]` — one authorized_keys / `.pub` line without the newline.
    public func line(comment: String? = nil) -> String {
        if let comment, !comment.isEmpty { return "\(type) \(base64) \(comment)" }
        return "\(type) \(base64)"
    }

    public static func == (a: PublicKey, b: PublicKey) -> Bool { a.blob == b.blob }
    public func hash(into h: inout Hasher) { h.combine(blob) }

    static func bitLength(_ magnitude: [UInt8]) -> Int {
        guard let i = magnitude.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (magnitude.count - i - 1) * 8 + (8 - magnitude[i].leadingZeroBitCount)
    }
}
