// Both wire readers read an mpint by the one rule (MPIntRule, OpenSSH's sshbuf_get_bignum2):
// leading zero bytes stripped, a negative value and one over 16384 bits refused, and a
// refused read leaves the reader where it was.
import XCTest
import SecureMemory
@testable import KeyFormats

final class MPIntReadTests: XCTestCase {
    func string(_ bytes: [UInt8]) -> [UInt8] {
        var w = SSHWriter()
        w.writeString(bytes)
        return w.bytes
    }

    func testBothReadersStripLeadingZerosAndRefuseTheSameValues() throws {
        let cases: [(bytes: [UInt8], magnitude: [UInt8]?)] = [
            ([], []), ([0], []), ([0, 0, 0x7f], [0x7f]), ([0, 0x80, 1], [0x80, 1]), ([0x01, 0x00], [0x01, 0x00]),
            ([0x80], nil), ([0xff, 0], nil),
            ([0] + [UInt8](repeating: 0xff, count: 2048), [UInt8](repeating: 0xff, count: 2048)),
            ([0] + [UInt8](repeating: 0xff, count: 2049), nil),
        ]
        for c in cases {
            let wire = string(c.bytes)
            var reader = SSHReader(wire)
            let secret = wire.withUnsafeBytes { buffer -> (SecretBytes?, Int) in
                var secretReader = KeyDataReader(buffer)
                return ((try? secretReader.readSecretMPInt("n")), secretReader.offset)
            }
            if let magnitude = c.magnitude {
                XCTAssertEqual(try reader.readMPInt(), magnitude, "\(c.bytes.prefix(4))")
                XCTAssertEqual(secret.0.map { $0.withUnsafeBytes { Array($0) } }, magnitude, "\(c.bytes.prefix(4))")
                XCTAssertEqual(secret.1, wire.count)
            } else {
                XCTAssertThrowsError(try reader.readMPInt(), "\(c.bytes.prefix(4))")
                XCTAssertEqual(reader.offset, 0)
                XCTAssertNil(secret.0, "\(c.bytes.prefix(4))")
                XCTAssertEqual(secret.1, 0)
            }
        }
    }
}
