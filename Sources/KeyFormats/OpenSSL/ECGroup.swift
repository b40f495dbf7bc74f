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
        let out = try encode(point)
        try validatePublicPoint(out)
        return out
    }

    /// OpenSSH's test of an ECDSA public point (sshkey.c, sshkey_ec_validate_public), which
    /// every key it reads passes, for `04 ‖ X ‖ Y` of this curve's length:
    ///   1. the point is on the curve (OpenSSL's decoding checks it) and is not ∞;
    ///   2. X and Y each have more bits than half of the order n's;
    ///   3. X and Y are both below n − 1.
    /// OpenSSH also requires n·Q = ∞. On the three NIST curves (cofactor 1) every point of
    /// the curve but ∞ has order n, so that test cannot fail once 1 holds; it is not computed.
    func validatePublicPoint(_ q: [UInt8]) throws {
        let width = (curve.pointLength - 1) / 2
        guard q.count == curve.pointLength, q.first == 0x04 else {
            throw KeyFormatError.invalid("the \(curve.rawValue) public point is not an uncompressed point of \(curve.pointLength) bytes")
        }
        guard let point = EC_POINT_new(raw) else { throw KeyFormatError.invalid("out of memory") }
        defer { EC_POINT_free(point) }
        let onCurve = q.withUnsafeBufferPointer { EC_POINT_oct2point(raw, point, $0.baseAddress, $0.count, nil) == 1 }
        OpenSSLErrors.clear()
        guard onCurve, EC_POINT_is_at_infinity(raw, point) == 0 else {
            throw KeyFormatError.invalid("the \(curve.rawValue) public point is not on the curve")
        }
        let (x, y) = try q.withUnsafeBytes { all in
            (try BigNum(UnsafeRawBufferPointer(rebasing: all[1..<1 + width]), secret: false),
             try BigNum(UnsafeRawBufferPointer(rebasing: all[(1 + width)...]), secret: false))
        }
        let limit = try order()
        let half = BN_num_bits(limit.raw) / 2
        guard BN_sub_word(limit.raw, 1) == 1 else { OpenSSLErrors.clear(); throw KeyFormatError.invalid("out of memory") }
        guard BN_num_bits(x.raw) > half, BN_num_bits(y.raw) > half,
              BigNum.compare(x, limit) < 0, BigNum.compare(y, limit) < 0 else {
            throw KeyFormatError.invalid("the \(curve.rawValue) public point has a coordinate OpenSSH refuses (too short, or not below the group order − 1)")
        }
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
