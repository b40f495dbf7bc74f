// A public key object on a token, read from its attributes (CKA_KEY_TYPE, CKA_ID, CKA_LABEL,
// CKA_MODULUS/CKA_PUBLIC_EXPONENT or CKA_EC_PARAMS/CKA_EC_POINT) into the SSH public key
// OpenSSH's ssh-pkcs11.c makes of it. Every value is bounded and checked: the module is
// outside code and its answers are input.
public import KeyFormats

public struct TokenKeyObject: Sendable, Equatable {
    /// CKA_ID: what finds the private half again when signing.
    public let id: [UInt8]
    public let label: String
    public let publicKey: PublicKey

    /// The longest CKA_ID and CKA_LABEL kept, and the largest RSA modulus (16384 bits).
    public static let maxIDLength = 256
    public static let maxLabelLength = 256
    public static let maxModulusLength = 2048

    public init(id: [UInt8], label: String, publicKey: PublicKey) {
        self.id = id
        self.label = label
        self.publicKey = publicKey
    }

    /// The key from its raw attribute values. `keyType` is CKA_KEY_TYPE (CKK_RSA 0, CKK_EC 3,
    /// CKK_EC_EDWARDS 0x40).
    public static func parse(keyType: UInt, id: [UInt8], label: [UInt8], modulus: [UInt8]?, exponent: [UInt8]?,
                             ecParams: [UInt8]?, ecPoint: [UInt8]?) throws(TokenError) -> TokenKeyObject {
        guard id.count <= maxIDLength else { throw .malformed("a CKA_ID of \(id.count) bytes") }
        guard label.count <= maxLabelLength else { throw .malformed("a CKA_LABEL of \(label.count) bytes") }
        let text = String(decoding: label, as: UTF8.self)
        switch keyType {
        case 0:
            guard let modulus, let exponent else { throw .malformed("an RSA key without its modulus or exponent") }
            let n = Array(modulus.drop(while: { $0 == 0 })), e = Array(exponent.drop(while: { $0 == 0 }))
            guard n.count >= 128, n.count <= maxModulusLength else { throw .unsupportedKey("RSA with a \(n.count * 8)-bit modulus") }
            guard !e.isEmpty, e.count <= 8, e.last! & 1 == 1 else { throw .malformed("an RSA public exponent that is not odd and at most 64 bits") }
            return TokenKeyObject(id: id, label: text, publicKey: PublicKey(.rsa(exponent: e, modulus: n)))
        case 3:
            guard let ecParams, let ecPoint else { throw .malformed("an EC key without its parameters or point") }
            guard let curve = curve(ecParams) else { throw .unsupportedKey("an EC key on a curve other than P-256, P-384 or P-521") }
            let point = try unwrapPoint(ecPoint, length: curve.pointLength)
            guard point.first == 0x04 else { throw .malformed("an EC point that is not uncompressed") }
            return TokenKeyObject(id: id, label: text, publicKey: PublicKey(.ecdsa(curve: curve, point: point)))
        case 0x40:
            guard let ecParams, let ecPoint else { throw .malformed("an Ed25519 key without its parameters or point") }
            guard isEd25519(ecParams) else { throw .unsupportedKey("an Edwards key other than Ed25519") }
            let point = try unwrapPoint(ecPoint, length: 32)
            return TokenKeyObject(id: id, label: text, publicKey: PublicKey(.ed25519(publicKey: point)))
        default:
            throw .unsupportedKey("key type \(keyType)")
        }
    }

    /// The DER OIDs of the NIST curves in CKA_EC_PARAMS.
    static let curveOIDs: [(ECCurve, [UInt8])] = [
        (.p256, [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]),
        (.p384, [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]),
        (.p521, [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]),
    ]

    static func curve(_ params: [UInt8]) -> ECCurve? {
        curveOIDs.first(where: { $0.1 == params })?.0
    }

    /// id-Ed25519 (1.3.101.112) or the printable string "edwards25519" (PKCS#11 3.0 allows both).
    static func isEd25519(_ params: [UInt8]) -> Bool {
        params == [0x06, 0x03, 0x2B, 0x65, 0x70] || params == [0x13, 0x0C] + Array("edwards25519".utf8)
    }

    /// CKA_EC_POINT is a DER OCTET STRING holding the point (the standard); some modules give
    /// the bare point. Either must come to exactly `length` bytes.
    static func unwrapPoint(_ value: [UInt8], length: Int) throws(TokenError) -> [UInt8] {
        if value.count == length { return value }
        guard value.count >= 2, value[0] == 0x04 else { throw .malformed("an EC point of \(value.count) bytes") }
        var at = 2
        var contentLength = Int(value[1])
        if value[1] & 0x80 != 0 {
            let lengthBytes = Int(value[1] & 0x7F)
            guard lengthBytes >= 1, lengthBytes <= 2, value.count >= 2 + lengthBytes else { throw .malformed("an EC point with a bad DER length") }
            contentLength = value[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
            at = 2 + lengthBytes
        }
        guard contentLength == length, value.count == at + length else {
            throw .malformed("an EC point of \(value.count) bytes where \(length) were expected")
        }
        return Array(value[at...])
    }
}
