// SSHSIG sign data (PROTOCOL.sshsig §3) as the agent recognises it: the fields, and every
// malformed shape refused without reading past the end (each truncation, a trailing byte,
// lengths that run past the end, an empty namespace, a hash of the wrong length).
import XCTest
@testable import Agent
import KeyFormats
import TestSupport

final class SSHSIGRequestTests: XCTestCase {
    static func data(namespace: String = "git", reserved: [UInt8] = [], algorithm: String = "sha512", hash: [UInt8]? = nil) -> [UInt8] {
        AgentWire.sshsig(namespace: namespace, reserved: reserved, hashAlgorithm: algorithm,
                         hash: hash ?? [UInt8](repeating: 0xab, count: algorithm == "sha256" ? 32 : 64))
    }

    func testItsFieldsAreRead() throws {
        let request = try XCTUnwrap(SSHSIGRequest.parse(Self.data()))
        XCTAssertEqual(request.namespace, "git")
        XCTAssertEqual(request.hashAlgorithm, "sha512")
        XCTAssertEqual(request.hash.count, 64)
        XCTAssertEqual(SSHSIGRequest.parse(Self.data(namespace: "file", reserved: [1, 2], algorithm: "sha256"))?.namespace, "file",
                       "a non-empty reserved field is ignored, as PROTOCOL.sshsig says")
        XCTAssertEqual(SignedData(Self.data()), .sshsig(request))
    }

    func testEveryTruncationAndATrailingByteAreRefused() {
        let whole = Self.data()
        for length in 0..<whole.count { XCTAssertNil(SSHSIGRequest.parse(Array(whole.prefix(length))), "\(length) bytes") }
        XCTAssertNil(SSHSIGRequest.parse(whole + [0]))
        XCTAssertEqual(SignedData(whole + [0]), .unidentified)
    }

    func testMalformedFieldsAreRefused() {
        XCTAssertNil(SSHSIGRequest.parse(Self.data(namespace: "")), "empty namespace")
        XCTAssertNil(SSHSIGRequest.parse(Self.data(algorithm: "md5", hash: [1])), "unknown hash algorithm")
        XCTAssertNil(SSHSIGRequest.parse(Self.data(algorithm: "sha256", hash: [UInt8](repeating: 1, count: 64))), "wrong hash length")
        XCTAssertNil(SSHSIGRequest.parse(Array("SSHSIH".utf8) + Self.data().dropFirst(6)), "wrong preamble")
        // A length that runs far past the end: refused, nothing allocated for it.
        XCTAssertNil(SSHSIGRequest.parse(Array("SSHSIG".utf8) + [0xff, 0xff, 0xff, 0xf0] + Array("git".utf8)))
        // A namespace that is not UTF-8 text.
        var w = SSHWriter()
        w.writeString([0xff, 0xfe])
        XCTAssertNil(SSHSIGRequest.parse(Array("SSHSIG".utf8) + w.bytes + Self.data().dropFirst(6 + 7)))
    }
}
