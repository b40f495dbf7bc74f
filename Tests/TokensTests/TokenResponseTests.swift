// What hostbook makes of a module's answers, without a module: attribute values into public
// keys and C_Sign answers into signature blobs, the bounds on both, and the fuzz inputs.
import KeyFormats
import TestSupport
@testable import Tokens
import XCTest

final class TokenResponseTests: XCTestCase {
    private let p256 = TokenKeyObject.curveOIDs[0].1

    func testECPointsAreReadWrappedOrBare() throws {
        let point: [UInt8] = [0x04] + [UInt8](repeating: 7, count: 64)
        let wrapped = try TokenKeyObject.parse(keyType: 3, id: [1], label: Array("k".utf8), modulus: nil, exponent: nil,
                                               ecParams: p256, ecPoint: [0x04, 65] + point)
        let bare = try TokenKeyObject.parse(keyType: 3, id: [1], label: [], modulus: nil, exponent: nil, ecParams: p256, ecPoint: point)
        XCTAssertEqual(wrapped.publicKey, bare.publicKey)
        XCTAssertEqual(wrapped.publicKey.type, "ecdsa-sha2-nistp256")
        let ed = try TokenKeyObject.parse(keyType: 0x40, id: [], label: [], modulus: nil, exponent: nil,
                                          ecParams: [0x06, 0x03, 0x2B, 0x65, 0x70], ecPoint: [0x04, 32] + [UInt8](repeating: 9, count: 32))
        XCTAssertEqual(ed.publicKey.type, "ssh-ed25519")
    }

    func testMalformedAttributesAreRefused() {
        let point: [UInt8] = [0x04] + [UInt8](repeating: 7, count: 64)
        let cases: [(UInt, [UInt8]?, [UInt8]?, [UInt8]?, [UInt8]?)] = [
            (3, nil, nil, p256, [0x04, 66] + point),                          // DER length too long
            (3, nil, nil, p256, [0x04, 64] + point.dropLast()),              // a point too short
            (3, nil, nil, p256, [0x02] + point.dropFirst()),                  // compressed
            (3, nil, nil, [0x06, 0x01, 0x00], point),                         // unknown curve
            (0, [0x80], [0x01, 0x00, 0x01], nil, nil),                        // a tiny modulus
            (0, [UInt8](repeating: 0xff, count: 256), [0x02], nil, nil),      // an even exponent
            (0, [UInt8](repeating: 0xff, count: 256), nil, nil, nil),         // no exponent
            (0x40, nil, nil, [0x06, 0x03, 0x2B, 0x65, 0x71], [UInt8](repeating: 1, count: 32)), // Ed448
            (7, nil, nil, nil, nil),                                           // not a key type SSH knows
        ]
        for (type, modulus, exponent, params, point) in cases {
            XCTAssertThrowsError(try TokenKeyObject.parse(keyType: type, id: [], label: [], modulus: modulus, exponent: exponent,
                                                          ecParams: params, ecPoint: point), "\(type)")
        }
        XCTAssertThrowsError(try TokenKeyObject.parse(keyType: 0, id: [UInt8](repeating: 1, count: 257), label: [],
                                                      modulus: [UInt8](repeating: 0xff, count: 256), exponent: [1, 0, 1], ecParams: nil, ecPoint: nil))
    }

    func testSignatureAnswersBecomeSSHBlobsOfTheRightLength() throws {
        let point: [UInt8] = [0x04] + [UInt8](repeating: 7, count: 64)
        let ec = PublicKey(.ecdsa(curve: .p256, point: point))
        let request = try TokenSignature(key: ec, data: [1, 2, 3], flags: 0)
        XCTAssertEqual(request.input, Digest.sha256([1, 2, 3]))
        let answer = [UInt8](repeating: 0, count: 31) + [0x80] + [UInt8](repeating: 1, count: 32)
        var r = SSHReader(try request.blob(answer: answer, key: ec))
        XCTAssertEqual(try r.readText(), "ecdsa-sha2-nistp256")
        var inner = SSHReader(try r.readString())
        XCTAssertEqual(try inner.readString(), [0x00, 0x80])
        XCTAssertEqual(try inner.readString(), [UInt8](repeating: 1, count: 32))
        XCTAssertThrowsError(try request.blob(answer: Array(answer.dropLast()), key: ec))

        let rsa = PublicKey(.rsa(exponent: [1, 0, 1], modulus: [0xC0] + [UInt8](repeating: 3, count: 255)))
        XCTAssertThrowsError(try TokenSignature(key: rsa, data: [], flags: 0)) { XCTAssertEqual($0 as? TokenError, .unsupportedAlgorithm("ssh-rsa")) }
        let sha512 = try TokenSignature(key: rsa, data: [], flags: 4)
        XCTAssertEqual(sha512.algorithm, "rsa-sha2-512")
        XCTAssertEqual(sha512.input.count, 19 + 64)
        var padded = SSHReader(try sha512.blob(answer: [UInt8](repeating: 5, count: 250), key: rsa))
        XCTAssertEqual(try padded.readText(), "rsa-sha2-512")
        XCTAssertEqual(try padded.readString(), [UInt8](repeating: 0, count: 6) + [UInt8](repeating: 5, count: 250))
        XCTAssertThrowsError(try sha512.blob(answer: [UInt8](repeating: 5, count: 257), key: rsa))
        XCTAssertThrowsError(try sha512.blob(answer: [], key: rsa))
    }

    func testEveryKnownFuzzInputIsHandled() throws {
        try FuzzReplay.replayCrashersAndCorpus(of: [("token-response", TokensFuzzEntry.run)])
    }
}
