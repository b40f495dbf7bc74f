// The certificate and krl lines of the bundle text (`bundle export --ca`): a round trip with
// both, and every refusal naming its line: a host certificate, a line not written as
// hostbook writes it, unsorted or repeated certificates, a KRL that is not base64 or does not
// parse, a second krl line, anything after it, and sections out of order.
import XCTest
import KeyFormats
@testable import ImportFormats

final class BundleTextCertificateTests: XCTestCase {
    let header = BundleTextTests.header
    let ca = try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "ca")

    func certificate(serial: UInt64, role: Certificate.Role = .user) throws -> Certificate {
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k").publicKey
        return try CertificateEncoder.sign(CertificateFields(key: key, role: role, serial: serial, keyID: "id", principals: ["p"],
                                                             validAfter: 0, validBefore: 100, options: role == .user ? .userDefault : .none), with: ca)
    }

    var krl: String { Base64.encode(KeyRevocationList(version: 1, generatedDate: 0, certificates: [.init(caKey: ca.publicKey.blob, serials: [3])]).encoded()) }

    func assertRefused(_ text: String, line: Int, _ words: String, file: StaticString = #filePath, fileLine: UInt = #line) {
        XCTAssertThrowsError(try BundleText.parse(Array(text.utf8)), file: file, line: fileLine) { error in
            guard let e = error as? BundleTextError else { return XCTFail("\(error)", file: file, line: fileLine) }
            XCTAssertEqual(e.line, line, e.description, file: file, line: fileLine)
            XCTAssertTrue(e.message.contains(words), "'\(e.message)' lacks '\(words)'", file: file, line: fileLine)
        }
    }

    func testCertificatesAndTheKRLRoundTrip() throws {
        let a = BundleText.line(of: try certificate(serial: 1)), b = BundleText.line(of: try certificate(serial: 2))
        let doc = BundleDocument(name: "t", serial: 1, hostKeys: ["@cert-authority *.corp.example \(ca.publicKey.line())"],
                                 certificates: [b, a, a], revocationList: krl)
        let text = BundleText.render(doc)
        let parsed = try BundleText.parse(text)
        XCTAssertEqual(parsed.certificates, [a, b].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(parsed.revocationList, krl)
        XCTAssertEqual(BundleText.render(parsed), text)
        XCTAssertTrue(String(decoding: text, as: UTF8.self).hasSuffix("\n\nkrl \"\(krl)\"\n"))
        // Without host keys: a blank line, then the certificates.
        let alone = BundleDocument(name: "t", serial: 1, certificates: [a])
        XCTAssertEqual(try BundleText.parse(BundleText.render(alone)), alone)
        XCTAssertEqual(try BundleText.revocationList(krl).certificates.first?.serials, [3])
    }

    func testRefusals() throws {
        let a = BundleText.line(of: try certificate(serial: 1)), b = BundleText.line(of: try certificate(serial: 2))
        let (first, second) = a.utf8.lexicographicallyPrecedes(b.utf8) ? (a, b) : (b, a)
        let host = BundleText.line(of: try certificate(serial: 3, role: .host))
        let k = "host-key \"a.example ssh-ed25519 \(BundleTextTests.keyA)\"\n"
        assertRefused(header + "\ncertificate \"\(host)\"\n", line: 5, "user certificates only")
        assertRefused(header + "\ncertificate \"\(a) comment\"\n", line: 5, "not a usable certificate")
        assertRefused(header + "\ncertificate \"ssh-rsa-cert-v01@openssh.com \(a.split(separator: " ")[1])\"\n", line: 5, "type mismatch")
        assertRefused(header + "\ncertificate \"\(BundleTextTests.keyA)\"\n", line: 5, "TYPE BASE64")
        assertRefused(header + "\ncertificate \"\(second)\"\ncertificate \"\(first)\"\n", line: 6, "sorted")
        assertRefused(header + "\ncertificate \"\(a)\"\ncertificate \"\(a)\"\n", line: 6, "a second copy")
        assertRefused(header + "\ncertificate \"\(a)\"\n\ncertificate \"\(b)\"\n", line: 7, "a blank line among the certificates")
        assertRefused(header + "\ncertificate \"\(a)\"\n\n" + k, line: 7, "host keys come before certificates")
        assertRefused(header + "\ncertificate \"\(a)\"\n" + k, line: 6, "expected a 'certificate' line")
        assertRefused(header + "\nkrl \"AAAA\"\n", line: 5, "not a usable revocation list")
        assertRefused(header + "\nkrl \"not base64!\"\n", line: 5, "not in base64")
        assertRefused(header + "\nkrl 12\n", line: 5, "double quotes")
        assertRefused(header + "\nkrl \"\(krl)\"\n\nkrl \"\(krl)\"\n", line: 7, "a second krl line")
        assertRefused(header + "\nkrl \"\(krl)\"\ncertificate \"\(a)\"\n", line: 6, "the krl line comes last")
        assertRefused(header + "\nkrl \"\(krl)\"\n\n", line: 6, "a blank line at the end")
        assertRefused(header + "\nkrl \"\(krl)\"\n\ncertificate \"\(a)\"\n", line: 7, "certificates come before the krl")
        assertRefused(header + "\nkrl \"\(krl)\"\n\nsnippet \"s\"\n  command \"c\"\n", line: 7, "snippets come before host keys")
        // A KRL over the bound is refused by the line bound or the KRL bound, never read.
        let big = Base64.encode([UInt8](repeating: 0, count: BundleText.maximumRevocationListBytes + 3))
        XCTAssertThrowsError(try BundleText.revocationList(big))
    }
}
