// bcrypt_pbkdf against known-answer vectors: the first is the OpenBSD reference vector, the
// others were computed with pyca/bcrypt's `bcrypt.kdf` for the shapes hostbook uses
// (docs/formats.md, "bcrypt_pbkdf").
import XCTest
import SecureMemory
@testable import KeyFormats

final class BcryptPBKDFTests: XCTestCase {
    struct Vector {
        let password: [UInt8]
        let salt: String
        let keyLength: Int
        let rounds: Int
        let expected: String
    }

    static let vectors: [Vector] = [
        // aes256-ctr (48 bytes), aes256-gcm (44), chacha20-poly1305 (64) and none+bcrypt (8)
        // shapes after the first.
        Vector(password: Array("password".utf8), salt: "73616c74", keyLength: 32, rounds: 4,
               expected: "5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9"),
        Vector(password: Array("mekmitasdigoat".utf8), salt: "000102030405060708090a0b0c0d0e0f", keyLength: 48, rounds: 16,
               expected: "b7c15ab153b82304299acb112228b5b8abadf357d1f627e1da0f5a47936ca1835139605b0aeb3254e8349f442c815732"),
        Vector(password: Array("hostbook".utf8), salt: "ffffffffffffffffffffffffffffffff", keyLength: 44, rounds: 2,
               expected: "6c0b5101eb51768fb76b5b09d7e0546706e6edad58f813bcb7c88035e53bbaa9669499d1cefeba7b609b86e2"),
        Vector(password: Array("pass".utf8), salt: "0bf5db979f0b04bb105d8c69eaf79503", keyLength: 64, rounds: 1,
               expected: "9a141dbab549410bb55b1545d9862dd5ffc582c4f7df11458285997ebf2e8c23bd07b5023be42181227abe924c30e6298a6a1ae413b43bd5f364eca59693311c"),
        Vector(password: [0x00, 0xff] + Array("binary".utf8), salt: "73", keyLength: 8, rounds: 3,
               expected: "35d6dfe3098dede4"),
        // The two short NUL vectors below the table.
        Vector(password: Array("password".utf8), salt: "00", keyLength: 16, rounds: 4,
               expected: "c12b566235eee04c212598970a579a67"),
        Vector(password: [0x00], salt: "73616c74", keyLength: 16, rounds: 4,
               expected: "6051be18c2f4f82cbf0efee5471b4bb9"),
        // End-to-end rows: key ‖ IV of the upstream test files (passphrase mekmitasdigoat).
        Vector(password: Array("mekmitasdigoat".utf8), salt: "ca4f9ea6040b5720cb16aa6bae03681d", keyLength: 48, rounds: 16,
               expected: "1b4f6142f3ff6a9d6ff046543b31f9e1a898900e5e3d0f80475554f6af63e775" + "39763887d857c8afdfbcb09da2f9f6c9"),
        Vector(password: Array("mekmitasdigoat".utf8), salt: "05c3f5a0fd52394805d68ff1c9afda9e", keyLength: 48, rounds: 16,
               expected: "f4023fcc9b1782451b6d6cb6de8e956b9720928712b39e767d33bf3e78d31859" + "4050986b1b4a544946d953567a543443"),
        Vector(password: Array("mekmitasdigoat".utf8), salt: "7abdc255c7670f73bc984513aea7c567", keyLength: 48, rounds: 16,
               expected: "6442708c675aa6fed2b63a815d18b3703a480ceb0836ffb9c2c603727d8dc6b6" + "b0c4c1f3d74cd027f4d1d5a260744809"),
    ]

    func testKnownAnswerVectors() throws {
        for (i, v) in Self.vectors.enumerated() {
            let out = try v.password.withUnsafeBytes {
                try BcryptPBKDF.derive(passphrase: $0, salt: hex(v.salt), keyLength: v.keyLength, rounds: v.rounds)
            }
            XCTAssertEqual(out.withUnsafeBytes { toHex(Array($0)) }, v.expected, "vector \(i + 1)")
        }
    }

    func testSecretBytesEntryPointMatches() throws {
        let pass = SecretBytes(copying: Array("password".utf8))
        let out = try BcryptPBKDF.derive(passphrase: pass, salt: Array("salt".utf8), keyLength: 32, rounds: 4)
        XCTAssertEqual(out.withUnsafeBytes { toHex(Array($0)) }, Self.vectors[0].expected)
    }

    func testParameterLimits() {
        let pass = SecretBytes(copying: Array("pw".utf8))
        let cases: [(SecretBytes, [UInt8], Int, Int, String)] = [
            (pass, [1], 32, 0, "bcrypt rounds must be at least 1, not 0"),
            (SecretBytes(count: 0), [1], 32, 1, "bcrypt_pbkdf needs a non-empty passphrase"),
            (pass, [], 32, 1, "the bcrypt salt must be 1 byte to 1 MiB long, not 0 bytes"),
            (pass, [1], 0, 1, "bcrypt_pbkdf can derive 1 to 1024 bytes, not 0"),
            (pass, [1], 1025, 1, "bcrypt_pbkdf can derive 1 to 1024 bytes, not 1025"),
        ]
        for (p, salt, len, rounds, message) in cases {
            XCTAssertThrowsError(try BcryptPBKDF.derive(passphrase: p, salt: salt, keyLength: len, rounds: rounds)) { error in
                XCTAssertEqual(error as? KeyFormatError, KeyFormatError.invalid(message))
            }
        }
    }
}

func hex(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    var it = s.utf8.makeIterator()
    while let a = it.next(), let b = it.next() {
        out.append(UInt8(String(decoding: [a, b], as: UTF8.self), radix: 16)!)
    }
    return out
}

func toHex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }
