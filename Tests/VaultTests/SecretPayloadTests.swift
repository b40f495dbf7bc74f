// The versioned payload layout (Sources/Vault/Payload/SecretPayload.swift), without a keyring.
import SecureMemory
import Vault
import XCTest

final class SecretPayloadTests: XCTestCase {
    func bytes(_ secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

    func testEncodePutsTheVersionByteFirst() {
        let payload = SecretPayload.encode(SecretBytes(copying: [0xAA, 0x00, 0xFF]))
        XCTAssertEqual(bytes(payload), [0x01, 0xAA, 0x00, 0xFF])
    }

    func testDecodeReturnsTheSecret() throws {
        let cases: [[UInt8]] = [[], [0], Array(0...255), Array("pässword".utf8)]
        for secret in cases {
            let decoded = try SecretPayload.decode(SecretPayload.encode(SecretBytes(copying: secret)))
            XCTAssertEqual(bytes(decoded), secret)
        }
    }

    func testDecodeRefusesUnknownVersionsAndEmptyPayloads() {
        let cases: [([UInt8], SecretPayload.DecodeError)] = [
            ([], .empty),
            ([0x00, 1, 2], .unknownVersion(0)),
            ([0x02], .unknownVersion(2)),
            ([0xFF, 0x01], .unknownVersion(255)),
        ]
        for (payload, expected) in cases {
            XCTAssertThrowsError(try SecretPayload.decode(SecretBytes(copying: payload)), "\(payload)") { error in
                XCTAssertEqual(error as? SecretPayload.DecodeError, expected)
            }
        }
    }
}
