// What hostbook makes of a provider's answers: the signature blob as OpenSSH assembles it,
// and the checks on an enrolment (public key, handle) and an attestation.
import KeyFormats
@testable import SecurityKeys
import TestSupport
import XCTest

final class SecurityKeyResponseTests: XCTestCase {
    func testSignatureBlobsHaveOpenSSHsLayout() throws {
        let ed = try SecurityKeySignResponse(flags: 1, counter: 7, sigR: [UInt8](repeating: 0xab, count: 64), sigS: [])
            .signatureBlob(for: .ed25519)
        var r = SSHReader(ed)
        XCTAssertEqual(try r.readText(), "sk-ssh-ed25519@openssh.com")
        XCTAssertEqual(try r.readString().count, 64)
        XCTAssertEqual(try r.readByte(), 1)
        XCTAssertEqual(try r.readUInt32(), 7)
        XCTAssertTrue(r.isAtEnd)

        let ec = try SecurityKeySignResponse(flags: 5, counter: 1, sigR: [0x80] + [UInt8](repeating: 1, count: 31), sigS: [1])
            .signatureBlob(for: .ecdsa)
        var e = SSHReader(ec)
        XCTAssertEqual(try e.readText(), "sk-ecdsa-sha2-nistp256@openssh.com")
        var inner = SSHReader(try e.readString())
        XCTAssertEqual(try inner.readString().first, 0, "r with its high bit set gets a zero byte, as an mpint")
        XCTAssertEqual(try inner.readString(), [1])
        XCTAssertEqual(try e.readByte(), 5)
    }

    func testMalformedAnswersAreRefused() {
        XCTAssertThrowsError(try SecurityKeySignResponse(flags: 1, counter: 0, sigR: [1, 2], sigS: []).signatureBlob(for: .ed25519))
        XCTAssertThrowsError(try SecurityKeySignResponse(flags: 1, counter: 0, sigR: [], sigS: [1]).signatureBlob(for: .ecdsa))
        let attestation = SecurityKeyAttestation()
        XCTAssertThrowsError(try SecurityKeyEnrollResponse(flags: 1, publicKey: [UInt8](repeating: 9, count: 32), keyHandle: [],
                                                           attestation: attestation).privateKey(kind: .ed25519, application: "ssh:", comment: ""))
        // 65 bytes starting 04 but not a point of P-256.
        XCTAssertThrowsError(try SecurityKeyEnrollResponse(flags: 1, publicKey: [4] + [UInt8](repeating: 1, count: 64), keyHandle: [1],
                                                           attestation: attestation).privateKey(kind: .ecdsa, application: "ssh:", comment: ""))
        XCTAssertNoThrow(try SecurityKeyEnrollResponse(flags: 1, publicKey: [UInt8](repeating: 9, count: 32), keyHandle: [1],
                                                       attestation: attestation).privateKey(kind: .ed25519, application: "ssh:", comment: ""))
    }

    func testAttestationBlobsRoundTripAndTruncationsAreRefused() throws {
        let attestation = SecurityKeyAttestation(certificate: [1, 2], signature: [3], authenticatorData: [4, 5, 6])
        XCTAssertEqual(try SecurityKeyAttestation.parse(attestation.blob), attestation)
        XCTAssertThrowsError(try SecurityKeyAttestation.parse(Array(attestation.blob.dropLast())))
        XCTAssertEqual(try SecurityKeyAttestation.parse([]), SecurityKeyAttestation())
    }

    func testHelperErrorsKeepTheirMeaning() {
        var w = SSHWriter()
        w.writeByte(SSHSKHelper.protocolVersion)
        w.writeUInt32(0)
        w.writeUInt32(60)
        XCTAssertThrowsError(try SSHSKHelper.reply(w.bytes, expecting: .sign)) { XCTAssertEqual($0 as? SecurityKeyError, .deviceNotFound) }
        XCTAssertEqual(SSHSKHelper.helperError(43, operation: .sign), .pinRequired)
    }

    func testEveryKnownFuzzInputIsHandled() throws {
        try FuzzReplay.replayCrashersAndCorpus(of: [("security-key-response", SecurityKeysFuzzEntry.run)])
    }
}
