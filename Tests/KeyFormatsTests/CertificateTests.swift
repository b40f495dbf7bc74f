// OpenSSH certificates made by ssh-keygen -s (testkeys/certs, see
// testkeys/make-pem-ppk-cert-keys.sh) and OpenSSH's own *-cert.pub test files: fields,
// fingerprint (= the certified key's), CA signature, and damage.
import XCTest
@testable import KeyFormats

final class CertificateTests: XCTestCase {
    func certificate(_ url: URL) throws -> (Certificate, String) {
        guard case .certificate(let cert, let comment) = try PublicKeyFile.parse(try Fixtures.bytes(url)) else {
            XCTFail("\(url.lastPathComponent) is not read as a certificate"); throw KeyFormatError.invalid("not a certificate")
        }
        return (cert, comment)
    }

    func testFixtureFieldsAndSignatures() throws {
        let rows = try Fixtures.manifest("certs")
        XCTAssertEqual(rows.count, 11)
        let validAfter: UInt64 = 1_577_836_800   // 2020-01-01T00:00:00Z
        let validBefore: UInt64 = 2_208_988_800  // 2040-01-01T00:00:00Z
        for row in rows {
            let file = row["file"]!
            let (cert, _) = try certificate(Fixtures.testkeys("certs/" + file))
            XCTAssertEqual(cert.sha256Fingerprint, try Fixtures.fingerprint(Fixtures.testkeys("certs/" + file.replacingOccurrences(of: ".pub", with: ".fp"))), file)
            XCTAssertEqual(cert.role, row["role"] == "host" ? .host : .user, file)
            XCTAssertEqual(cert.keyID, row["key_id"], file)
            XCTAssertEqual(cert.principals, row["principals"]!.split(separator: ",").map(String.init), file)
            XCTAssertEqual(cert.serial, UInt64(row["serial"]!), file)
            XCTAssertEqual(cert.signatureAlgorithm, row["sigalg"], file)
            XCTAssertEqual(cert.validAfter, validAfter, file)
            XCTAssertEqual(cert.validBefore, validBefore, file)
            XCTAssertEqual(cert.nonce.count, 32, file)
            let ca = try PublicKeyLine.parse(Fixtures.text(Fixtures.testkeys("certs/\(row["ca"]!).pub")))
            XCTAssertEqual(cert.signatureKey, ca.key, file)
            XCTAssertTrue(cert.verifySignature(), "\(file): the CA signature does not verify")
            XCTAssertTrue(cert.isValid(at: validAfter), file)
            XCTAssertFalse(cert.isValid(at: validBefore), file)
            XCTAssertFalse(cert.isValid(at: validAfter - 1), file)
            if cert.role == .host {
                XCTAssertTrue(cert.extensions.isEmpty, file)
            } else {
                XCTAssertTrue(cert.extensions.contains { $0.name == "permit-pty" }, file)
            }
        }
    }

    func testCriticalOptionsAndExtensions() throws {
        let (cert, comment) = try certificate(Fixtures.testkeys("certs/user_ed25519_by_ed25519-cert.pub"))
        XCTAssertEqual(comment, "user ed25519")
        XCTAssertEqual(cert.type, "ssh-ed25519-cert-v01@openssh.com")
        XCTAssertEqual(cert.criticalOptions.map(\.name), ["force-command", "source-address"])
        XCTAssertEqual(cert.criticalOptions.map { Certificate.stringValue($0.data) }, ["/bin/true", "10.0.0.0/8"])
        // ssh-keygen -O no-port-forwarding removes that extension from the defaults.
        XCTAssertEqual(cert.extensions.map(\.name), ["permit-X11-forwarding", "permit-agent-forwarding", "permit-pty", "permit-user-rc"])
        XCTAssertTrue(cert.extensions.allSatisfy { $0.data.isEmpty })
    }

    func testEveryChangedByteIsRefusedOrFailsVerification() throws {
        for row in try Fixtures.manifest("certs") {
            let (cert, _) = try certificate(Fixtures.testkeys("certs/" + row["file"]!))
            // Every signed byte, in steps: the signature must no longer verify.
            for i in stride(from: 0, to: cert.signedLength, by: max(1, cert.signedLength / 40)) {
                var blob = cert.blob
                blob[i] ^= 0x01
                if let changed = try? Certificate(blob: blob) {
                    XCTAssertFalse(changed.verifySignature(), "\(row["file"]!): byte \(i) changed but the signature verifies")
                }
            }
            // A changed signature byte.
            var blob = cert.blob
            blob[blob.count - 5] ^= 0x40
            if let changed = try? Certificate(blob: blob) { XCTAssertFalse(changed.verifySignature(), row["file"]!) }
            // Truncations never crash and are refused.
            for cut in stride(from: 0, to: cert.blob.count, by: 7) {
                XCTAssertThrowsError(try Certificate(blob: Array(cert.blob.prefix(cut))))
            }
            XCTAssertThrowsError(try Certificate(blob: cert.blob + [0]), "trailing byte")
        }
    }

    func testACertificateCannotBeItsOwnCA() throws {
        let (cert, _) = try certificate(Fixtures.testkeys("certs/user_ed25519_by_ed25519-cert.pub"))
        // Rebuild the blob with the certificate itself as signature key.
        var w = SSHWriter()
        w.writeRaw(cert.blob[..<(cert.signedLength - 4 - cert.signatureKey.blob.count)])
        w.writeString(cert.blob)
        w.writeString(cert.signatureBlob)
        let e = assertKeyError(.invalid) { try Certificate(blob: w.bytes) }
        XCTAssertEqual(e?.reason, "the certificate's signature key is itself a certificate")
    }

    func testOpenSSHTestCertificates() throws {
        let dir = Fixtures.sshkeySet
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("-cert.pub") && !$0.hasPrefix("mldsa") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 6)
        for file in files {
            let (cert, _) = try certificate(dir.appendingPathComponent(file))
            let fp = dir.appendingPathComponent(file.replacingOccurrences(of: "-cert.pub", with: "-cert.fp"))
            if FileManager.default.fileExists(atPath: fp.path) {
                XCTAssertEqual(cert.sha256Fingerprint, try Fixtures.fingerprint(fp), file)
            } else {
                // rsa_1_sha1 / rsa_1_sha512 certify the rsa_1 key.
                XCTAssertEqual(cert.sha256Fingerprint, try Fixtures.fingerprint(dir.appendingPathComponent("rsa_1.fp")), file)
            }
            XCTAssertTrue(cert.verifySignature(), "\(file) (\(cert.signatureAlgorithm) by \(cert.signatureKey.type))")
        }
    }
}
