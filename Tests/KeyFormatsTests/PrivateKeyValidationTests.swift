// PrivateKey.validate() and PrivateKeyGenerator: generated keys pass; keys whose public
// half does not belong to the private half are refused with the reason.
import XCTest
import SecureMemory
@testable import KeyFormats

final class PrivateKeyValidationTests: XCTestCase {
    func testGeneratedKeysAreValidAndTheRightSize() throws {
        let cases: [(KeyGenerationType, Int?, String, Int)] = [
            (.ed25519, nil, "ssh-ed25519", 256), (.ecdsa, nil, "ecdsa-sha2-nistp256", 256),
            (.ecdsa, 384, "ecdsa-sha2-nistp384", 384), (.ecdsa, 521, "ecdsa-sha2-nistp521", 521),
            (.rsa, 2048, "ssh-rsa", 2048), (.rsa, nil, "ssh-rsa", 3072),
        ]
        var seen = Set<String>()
        for (type, bits, wire, size) in cases {
            let key = try PrivateKeyGenerator.generate(type, bits: bits, comment: "made by a test")
            XCTAssertNoThrow(try key.validate())
            XCTAssertEqual(key.publicKey.type, wire)
            XCTAssertEqual(key.publicKey.bits, size)
            XCTAssertEqual(key.comment, "made by a test")
            XCTAssertTrue(seen.insert(key.publicKey.sha256Fingerprint).inserted)
            // The public half is a well-formed blob.
            XCTAssertEqual(try PublicKey(blob: key.publicKey.blob), key.publicKey)
            if case .rsa(_, let e, _, _, _, _) = key.algorithm { XCTAssertEqual(e, [0x01, 0x00, 0x01]) }
        }
    }

    func testGeneratorRefusesBadSizes() {
        for (type, bits) in [(KeyGenerationType.rsa, 1024), (.rsa, 16385), (.ecdsa, 255), (.ecdsa, 512)] {
            assertKeyError(.unsupported, "\(type) \(bits)") { try PrivateKeyGenerator.generate(type, bits: bits, comment: "") }
        }
        let e = assertKeyError(.unsupported) { try PrivateKeyGenerator.generate(.rsa, bits: 1024, comment: "") }
        XCTAssertEqual(e?.reason, "RSA keys must be between 2048 and 16384 bits, not 1024")
    }

    func pem(_ name: String) throws -> PrivateKey {
        try PEMPrivateKey.parse(Fixtures.bytes(Fixtures.testkeys("pem/" + name)), passphrase: nil).key
    }

    func testInconsistentKeysAreRefused() throws {
        let ed = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "")
        guard case .ed25519(let seed, var pk) = ed.algorithm else { return XCTFail() }
        pk[0] ^= 1
        expect(PrivateKey(algorithm: .ed25519(seed: seed, publicKey: pk), comment: ""),
               "the Ed25519 public key does not belong to the private key")

        guard case .ecdsa(let curve, let point, let scalar) = try pem("ecdsa256").algorithm else { return XCTFail() }
        expect(PrivateKey(algorithm: .ecdsa(curve: curve, point: point, scalar: SecretBytes(count: 0)), comment: ""),
               "the ECDSA private scalar is out of range for nistp256")
        // n, the order of P-256: out of range.
        let order = Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")!
        expect(PrivateKey(algorithm: .ecdsa(curve: curve, point: point, scalar: SecretBytes(copying: order)), comment: ""),
               "the ECDSA private scalar is out of range for nistp256")
        var otherPoint = point
        otherPoint[5] ^= 1
        expect(PrivateKey(algorithm: .ecdsa(curve: curve, point: otherPoint, scalar: scalar), comment: ""),
               "the ECDSA public point does not belong to the private key (d·G ≠ Q)")

        guard case .rsa(let n, let e, let d, let iqmp, let p, let q) = try pem("rsa").algorithm else { return XCTFail() }
        expect(PrivateKey(algorithm: .rsa(modulus: n, exponent: e, d: d, iqmp: iqmp, p: q, q: p), comment: ""),
               "the RSA coefficient iqmp is not q⁻¹ mod p")
        var n2 = n
        n2[n2.count - 1] ^= 2
        expect(PrivateKey(algorithm: .rsa(modulus: n2, exponent: e, d: d, iqmp: iqmp, p: p, q: q), comment: ""),
               "the RSA modulus is not the product of the primes p and q")
        expect(PrivateKey(algorithm: .rsa(modulus: n, exponent: [3], d: d, iqmp: iqmp, p: p, q: q), comment: ""),
               "the RSA private exponent d does not match the public exponent e")
        expect(PrivateKey(algorithm: .rsa(modulus: Array(n.prefix(100)), exponent: e, d: d, iqmp: iqmp, p: p, q: q), comment: ""),
               "RSA key of 800 bits is too small (OpenSSH requires at least 1024)")
    }

    func testSecurityKeysHaveNothingSecretToCheck() {
        let sk = PrivateKey(algorithm: .skEd25519(publicKey: [UInt8](repeating: 7, count: 32), application: "ssh:", flags: 1, keyHandle: [1, 2], reserved: []), comment: "")
        XCTAssertNoThrow(try sk.validate())
    }

    private func expect(_ key: PrivateKey, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        let e = assertKeyError(.invalid, file: file, line: line) { try key.validate() }
        XCTAssertEqual(e?.reason, reason, file: file, line: line)
    }
}
