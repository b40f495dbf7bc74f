// `hostbook -Y sign`'s arguments as git 2.39 and ssh-keygen(1) give them, read in-process
// (GitSignatureProgram.signRequest): what is a sign request, what is left to ssh-keygen, and
// what is refused with the reason. The signing itself is GitSigningTests' (real git, agent
// and ssh-keygen).
import Foundation
import XCTest
@testable import Sessions

final class GitSignatureProgramTests: XCTestCase {
    func testGitsSignRequestIsReadAndOtherOperationsAreLeftToSSHKeygen() throws {
        // Exactly what git 2.39 runs for a public key file (and -U for a literal key).
        let git = try GitSignatureProgram.signRequest(["-Y", "sign", "-n", "git", "-f", "/d/k.pub", "/tmp/.git_signing_buffer_tmpX"])
        XCTAssertEqual(git, .init(namespace: "git", keyFile: "/d/k.pub", files: ["/tmp/.git_signing_buffer_tmpX"], hashAlgorithm: "sha512"))
        let literal = try GitSignatureProgram.signRequest(["-Y", "sign", "-n", "git", "-f", "/tmp/key", "-U", "buf"])
        XCTAssertEqual(literal?.files, ["buf"])
        // No file, or `-`: standard input; -O hashalg and -q as ssh-keygen takes them.
        XCTAssertEqual(try GitSignatureProgram.signRequest(["-Y", "sign", "-q", "-f", "k", "-n", "file", "-O", "hashalg=sha256"]),
                       .init(namespace: "file", keyFile: "k", files: [], hashAlgorithm: "sha256"))
        XCTAssertEqual(try GitSignatureProgram.signRequest(["-Y", "sign", "-n", "f", "-f", "k", "--", "-x"])?.files, ["-x"])
        // Every other operation is ssh-keygen's.
        for op in [["-Y", "verify", "-n", "git", "-f", "a", "-I", "p", "-s", "s"], ["-Y", "find-principals", "-f", "a", "-s", "s"],
                   ["-Y", "check-novalidate", "-n", "git", "-s", "s"], ["-Y"]] {
            XCTAssertNil(try GitSignatureProgram.signRequest(op), "\(op)")
        }
    }

    func testABadSignRequestIsRefusedWithTheReason() {
        // The words are the program's (SessionRefusal+Presentation.swift).
        let cases: [([String], SignUsageProblem)] = [
            (["-Y", "sign", "-f", "k", "m"], .missingNamespace),
            (["-Y", "sign", "-n", "git", "m"], .missingKeyFile),
            (["-Y", "sign", "-n", "git", "-f"], .needsValue(option: "-f")),
            (["-Y", "sign", "-n", "git", "-f", "k", "-O", "hashalg=md5"], .unsupportedHashAlgorithm("md5")),
            (["-Y", "sign", "-n", "git", "-f", "k", "-O", "print-pubkey"], .unsupportedSigningOption("print-pubkey")),
            (["-Y", "sign", "-n", "git", "-f", "k", "-Z", "m"], .unsupportedOption("-Z")),
        ]
        for (argv, problem) in cases {
            XCTAssertThrowsError(try GitSignatureProgram.signRequest(argv), "\(argv)") { error in
                XCTAssertEqual(error as? SessionRefusal, .signUsage(problem))
            }
        }
    }

    func testAPublicKeyFileIsReadAndAnythingElseIsNot() throws {
        let dir = NSTemporaryDirectory() + "gsp-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let line = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOEoZgURByDqqMRJC1z7xbKnKQb1OTqJ4VTtcu7SujqR"
        try (line + " signer\n").write(toFile: dir + "/k.pub", atomically: true, encoding: .utf8)
        try "-----BEGIN OPENSSH PRIVATE KEY-----\n".write(toFile: dir + "/k", atomically: true, encoding: .utf8)
        XCTAssertEqual(try GitSignatureProgram.publicKey(in: dir + "/k.pub")?.comment, "signer")
        XCTAssertNil(try GitSignatureProgram.publicKey(in: dir + "/k"), "a private key file is ssh-keygen's")
        XCTAssertThrowsError(try GitSignatureProgram.publicKey(in: dir + "/missing")) { error in
            guard case .signFileNotRead(keyFile: true, path: dir + "/missing", opening: true, limit: nil, _)? = error as? SessionRefusal else {
                return XCTFail("\(error)")
            }
        }
    }
}
