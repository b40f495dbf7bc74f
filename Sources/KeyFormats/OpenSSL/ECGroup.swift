// The three NIST curves OpenSSH uses, as OpenSSL EC_GROUPs: names, order, point
// encoding and scalar multiplication (for d·G = Q checks). EC_GROUP/EC_POINT are the
// non-deprecated OpenSSL 3 curve API.
internal import COpenSSL

final class ECGroup {
    let curve: ECCurve
    let raw: OpaquePointer

    init(_ curve: ECCurve) throws {
        guard let g = EC_GROUP_new_by_curve_name(Self.nid(curve)) else {
            OpenSSLErrors.clear()
            throw KeyFormatError.unsupported("OpenSSL does not provide the curve \(curve.rawValue)")
        }
        self.curve = curve
        self.raw = g
    }
    deinit { EC_GROUP_free(raw) }

    static func nid(_ curve: ECCurve) -> Int32 {
        switch curve {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        case .p521: NID_secp521r1
        }
    }

    static func openSSLName(_ curve: ECCurve) -> String {
        switch curve { case .p256: "prime256v1"; case .p384: "secp384r1"; case .p521: "secp521r1" }
    }

    /// The curve for an OpenSSL group name ("prime256v1", "P-256", "secp384r1", ...).
    static func curve(named name: String) -> ECCurve? {
        var nid = OBJ_sn2nid(name)
        if nid == NID_undef { nid = EC_curve_nist2nid(name) }
        OpenSSLErrors.clear()
        return ECCurve.allCases.first { Self.nid($0) == nid }
    }

    /// The group order n.
    func order() throws -> BigNum {
        guard let o = EC_GROUP_get0_order(raw), let copy = BN_dup(o) else {
            OpenSSLErrors.clear(); throw KeyFormatError.invalid("out of memory")
        }
        return BigNum(owning: copy, secret: false)
    }

    /// Re-encodes any valid SEC1 point (compressed or not) as `04 ‖ X ‖ Y`; throws when the
    /// bytes are not a point on this curve.
    func uncompressed(_ encoded: [UInt8]) throws -> [UInt8] {
        guard let point = EC_POINT_new(raw) else { throw KeyFormatError.invalid("out of memory") }
        defer { EC_POINT_free(point) }
        let ok = encoded.withUnsafeBufferPointer { EC_POINT_oct2point(raw, point, $0.baseAddress, $0.count, nil) == 1 }
        OpenSSLErrors.clear()
        guard ok, EC_POINT_is_at_infinity(raw, point) == 0 else {
            throw KeyFormatError.invalid("the public point is not on the \(curve.rawValue) curve")
        }
        return try encode(point)
    }

    func encode(_ point: OpaquePointer) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: curve.pointLength)
        let written = out.withUnsafeMutableBufferPointer {
            EC_POINT_point2oct(raw, point, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, $0.count, nil)
        }
        OpenSSLErrors.clear()
        guard written == curve.pointLength else { throw KeyFormatError.invalid("could not encode the public point") }
        return out
    }

    /// d·G, uncompressed.
    func multiplyGenerator(_ d: BigNum) throws -> [UInt8] {
        guard let point = EC_POINT_new(raw) else { throw KeyFormatError.invalid("out of memory") }
        defer { EC_POINT_clear_free(point) }
        let ctx = try BigNumContext()
        guard EC_POINT_mul(raw, point, d.raw, nil, nil, ctx.raw) == 1 else {
            OpenSSLErrors.clear(); throw KeyFormatError.invalid("could not compute the public point")
        }
        return try encode(point)
    }
}
