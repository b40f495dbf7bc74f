// Public key files: .pub lines, authorized_keys lines with options, RFC 4716 blocks
// (ssh-keygen -e output in testkeys/pem/*.rfc4716) and certificate lines.
import XCTest
@testable import KeyFormats

final class PublicKeyFileTests: XCTestCase {
    func testRFC4716ExportsMatchTheirPubFiles() throws {
        for base in ["rsa", "ecdsa256", "ecdsa384", "ecdsa521", "ed25519"] {
            let block = try Fixtures.bytes(Fixtures.testkeys("pem/\(base).rfc4716"))
            guard case .key(let line) = try PublicKeyFile.parse(block) else { return XCTFail(base) }
            XCTAssertEqual(line.key.sha256Fingerprint, try Fixtures.fingerprint(Fixtures.testkeys("pem/\(base).fp")), base)
            XCTAssertTrue(line.comment.contains("converted by"), line.comment)
            // Our encoder's output reads back to the same key and comment.
            let again = try RFC4716PublicKey.parse(Array(RFC4716PublicKey.encode(line.key, comment: line.comment).utf8))
            XCTAssertEqual(again, line)
        }
    }

    func testPEMPublicKeysMatchTheirPubFiles() throws {
        let cases = [("rsa.spki.pem", "rsa"), ("ecdsa256.spki.pem", "ecdsa256"), ("ecdsa384.spki.pem", "ecdsa384"),
                     ("ecdsa521.spki.pem", "ecdsa521"), ("ed25519.spki.pem", "ed25519"), ("rsa.pkcs1-public.pem", "rsa")]
        for (file, base) in cases {
            let content = try PublicKeyFile.parse(try Fixtures.bytes(Fixtures.testkeys("pem/" + file)))
            XCTAssertEqual(content.publicKey.sha256Fingerprint, try Fixtures.fingerprint(Fixtures.testkeys("pem/\(base).fp")), file)
            XCTAssertEqual(content.comment, "")
        }
        let e = assertKeyError(.invalid) { try PEMPublicKey.parse(Array("-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n".utf8)) }
        XCTAssertEqual(e?.reason, "the PUBLIC KEY data is damaged (not a valid SubjectPublicKeyInfo)")
    }

    func testRFC4716HeadersContinuationsAndQuotes() throws {
        let key = try PublicKeyLine.parse(Fixtures.text(Fixtures.testkeys("pem/ed25519.pub"))).key
        let b64 = key.base64
        let text = """
        ---- BEGIN SSH2 PUBLIC KEY ----\r
        Subject: someone\r
        x-private: a long value that \\\r
        continues here\r
        Comment: "quoted, with spaces"\r
        \(b64.prefix(20))\r
        \(b64.dropFirst(20))\r
        ---- END SSH2 PUBLIC KEY ----\r

        """
        let line = try RFC4716PublicKey.parse(Array(text.utf8))
        XCTAssertEqual(line.key, key)
        XCTAssertEqual(line.comment, "quoted, with spaces")
        let long = RFC4716PublicKey.encode(key, comment: String(repeating: "x", count: 150))
        XCTAssertTrue(long.split(separator: "\n").allSatisfy { $0.utf8.count <= 72 })
        XCTAssertEqual(try RFC4716PublicKey.parse(Array(long.utf8)).comment, String(repeating: "x", count: 150))

        let truncated = "---- BEGIN SSH2 PUBLIC KEY ----\n\(b64)\n"
        let e = assertKeyError(.invalid) { try RFC4716PublicKey.parse(Array(truncated.utf8)) }
        XCTAssertEqual(e?.reason, "the RFC 4716 block has no END line (the file is truncated)")
    }

    func testAuthorizedKeysOptionsAreParsedPast() throws {
        let pub = try Fixtures.text(Fixtures.testkeys("pem/ecdsa256.pub")).trimmingCharacters(in: .newlines)
        let key = try PublicKeyLine.parse(pub).key
        let cases: [(String, String?)] = [
            (pub, nil),
            ("no-pty \(pub)", "no-pty"),
            ("restrict,command=\"echo \\\"hi there\\\"\",from=\"10.0.0.0/8,!10.1.*\" \(pub)",
             "restrict,command=\"echo \\\"hi there\\\"\",from=\"10.0.0.0/8,!10.1.*\""),
            ("environment=\"A=b c\"\t\(pub)", "environment=\"A=b c\""),
            ("cert-authority,principals=\"alice\" \(pub) ca comment", "cert-authority,principals=\"alice\""),
        ]
        for (text, options) in cases {
            let line = try AuthorizedKeysLine.parse(text)
            XCTAssertEqual(line.key, key, text)
            XCTAssertEqual(line.options, options, text)
            guard case .key(let fromFile) = try PublicKeyFile.parse(Array((text + "\n").utf8)) else { return XCTFail(text) }
            XCTAssertEqual(fromFile.key, key)
        }
        XCTAssertEqual(try AuthorizedKeysLine.parse("cert-authority,principals=\"alice\" \(pub) ca comment").comment.hasSuffix("ca comment"), true)

        let failures: [(String, String)] = [
            ("command=\"unterminated \(pub)", "the options have an unterminated double quote"),
            ("no-pty", "no key after 'no-pty' (unknown key type or options without a key)"),
            ("no-pty ssh-foo AAAA", "unknown key type 'ssh-foo'"),
            ("# comment", "the line holds no key (it is blank or a comment)"),
        ]
        for (text, reason) in failures {
            let e = assertKeyError(.invalid, text) { try AuthorizedKeysLine.parse(text) }
            XCTAssertEqual(e?.reason, reason)
        }
        let newer = "ssh-mldsa44-ed25519@openssh.com AAAAH3NzaC1tbGRzYTQ0LWVkMjU1MTlAb3BlbnNzaC5jb20= c"
        let e = assertKeyError(.unsupported) { try AuthorizedKeysLine.parse(newer) }
        XCTAssertEqual(e?.reason, "unknown or unsupported key type 'ssh-mldsa44-ed25519@openssh.com'")
    }

    func testCertificateLinesAndTypeMismatch() throws {
        let text = try Fixtures.text(Fixtures.testkeys("certs/host_ecdsa256_by_ed25519-cert.pub"))
        guard case .certificate(let cert, let comment) = try PublicKeyFile.parse(Array(text.utf8)) else { return XCTFail() }
        XCTAssertEqual(comment, "host ecdsa256")
        XCTAssertEqual(cert.role, .host)
        XCTAssertEqual(PublicKeyFile.Content.certificate(cert, comment: comment).publicKey, cert.key)
        let swapped = text.replacingOccurrences(of: "ecdsa-sha2-nistp256-cert-v01@openssh.com", with: "ssh-ed25519-cert-v01@openssh.com")
        let e = assertKeyError(.invalid) { try PublicKeyFile.parse(Array(swapped.utf8)) }
        XCTAssertEqual(e?.reason, "key type mismatch: the line says 'ssh-ed25519-cert-v01@openssh.com' but the certificate is ecdsa-sha2-nistp256-cert-v01@openssh.com")
    }

    func testSharedPubFilesMatchTheirFingerprints() throws {
        let dir = Fixtures.sshkeySet
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) where file.hasSuffix(".pub") && !file.hasPrefix("mldsa") && !file.contains("-cert") {
            let fp = dir.appendingPathComponent(file.replacingOccurrences(of: ".pub", with: ".fp"))
            guard FileManager.default.fileExists(atPath: fp.path) else { continue }
            let content = try PublicKeyFile.parse(try Fixtures.bytes(dir.appendingPathComponent(file)))
            XCTAssertEqual(content.publicKey.sha256Fingerprint, try Fixtures.fingerprint(fp), file)
        }
    }
}
