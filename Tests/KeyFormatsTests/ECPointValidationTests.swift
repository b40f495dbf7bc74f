// ECDSA public points as OpenSSH judges them (sshkey_ec_validate_public): a point off the
// curve, one with a coordinate of too few bits, and one with a coordinate not below the
// group order − 1 are no keys, to ssh-keygen and to hostbook alike. ssh-keygen is the
// oracle: every row is also given to `ssh-keygen -l`, and the two must agree. The slow
// fuzz input kept below (a damaged point in an encrypted openssh-key-v1 file) is refused
// before its 64 bcrypt rounds run, as ssh-keygen refuses it.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats

final class ECPointValidationTests: XCTestCase {
    /// An `ecdsa-sha2-CURVE` blob around the point bytes given.
    static func blob(curve: String, point: [UInt8]) -> [UInt8] {
        func string(_ v: [UInt8]) -> [UInt8] { [UInt8(v.count >> 24 & 0xff), UInt8(v.count >> 16 & 0xff), UInt8(v.count >> 8 & 0xff), UInt8(v.count & 0xff)] + v }
        return string(Array("ecdsa-sha2-\(curve)".utf8)) + string(Array(curve.utf8)) + string(point)
    }

    /// Points of P-256 computed offline (Y = √(X³ − 3X + b) mod p, p ≡ 3 mod 4).
    /// X = 5 (3 bits; OpenSSH wants more than 128) and a 255-bit Y.
    static let shortX = "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFRZJDuapYGAb+kTvOmYF63hHKUDxk2aPFM0FcCDJI+8w="
    /// A point of P-256 with X = n + 2, on the curve (X < p) but not below n − 1.
    static let largeX = "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBP////8AAAAA//////////+85vqtpxeehPO5ysL8YyVUSE8MD9pDTvCoCEWJFPMocV16VF4Zisfu4x3/6GG10j8="

    func sshKeygenAccepts(_ line: String, in dir: URL) throws -> Bool {
        let file = dir.appendingPathComponent("k-\(UUID().uuidString).pub")
        try Data((line + "\n").utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        p.arguments = ["-l", "-f", file.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    func testPointsAreJudgedAsSSHKeygenJudgesThem() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen"), "ssh-keygen is not installed")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-ecpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        var rows: [(name: String, line: String, valid: Bool)] = [
            ("P-256 point with a 3-bit X", "ecdsa-sha2-nistp256 \(Self.shortX)", false),
            ("P-256 point with X = n + 2", "ecdsa-sha2-nistp256 \(Self.largeX)", false),
        ]
        for bits in [256, 384, 521] {
            let key = dir.appendingPathComponent("ecdsa-\(bits)")
            let gen = Process()
            gen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
            gen.arguments = ["-q", "-t", "ecdsa", "-b", String(bits), "-N", "", "-f", key.path]
            try gen.run()
            gen.waitUntilExit()
            XCTAssertEqual(gen.terminationStatus, 0)
            let parts = try String(contentsOf: key.appendingPathExtension("pub"), encoding: .utf8).split(separator: " ")
            let type = String(parts[0])
            var blob = [UInt8](Data(base64Encoded: String(parts[1]))!)
            rows.append(("P-\(bits) key from ssh-keygen", "\(type) \(parts[1])", true))
            // The last byte of Y changed: off the curve.
            blob[blob.count - 1] ^= 0x01
            rows.append(("P-\(bits) point off the curve", "\(type) \(Data(blob).base64EncodedString())", false))
        }
        // The point at infinity's one-byte encoding, and the all-zero point of full length.
        rows.append(("P-256 point at infinity", "ecdsa-sha2-nistp256 \(Data(Self.blob(curve: "nistp256", point: [0])).base64EncodedString())", false))
        rows.append(("P-256 all-zero point", "ecdsa-sha2-nistp256 \(Data(Self.blob(curve: "nistp256", point: [4] + [UInt8](repeating: 0, count: 64))).base64EncodedString())", false))

        for row in rows {
            let theirs = try sshKeygenAccepts(row.line, in: dir)
            let ours = (try? PublicKeyLine.parse(row.line)) != nil
            XCTAssertEqual(theirs, row.valid, "\(row.name): ssh-keygen \(theirs ? "accepts" : "refuses") it")
            XCTAssertEqual(ours, theirs, "\(row.name): hostbook \(ours ? "accepts" : "refuses") it, ssh-keygen \(theirs ? "accepts" : "refuses") it")
        }
    }

    func testRefusalSaysWhy() throws {
        let short = try XCTUnwrap(Data(base64Encoded: Self.shortX))
        XCTAssertThrowsError(try PublicKey(blob: [UInt8](short))) { error in
            XCTAssertEqual("\(error)".contains("coordinate OpenSSH refuses"), true, "\(error)")
        }
        var offCurve = [UInt8](short)
        offCurve[offCurve.count - 1] ^= 0x01
        XCTAssertThrowsError(try PublicKey(blob: offCurve)) { error in
            XCTAssertEqual("\(error)".contains("not on the curve"), true, "\(error)")
        }
    }

    /// A fuzz input (openssh-key, 2026-12-01, kept as libFuzzer's slow unit): aes256-gcm,
    /// 64 bcrypt rounds, and an ECDSA public point off the curve. ssh-keygen refuses the
    /// file before any KDF ("error in libcrypto"); hostbook ran the rounds and then said
    /// "incorrect passphrase". Now the envelope is damaged, before the KDF runs.
    static let damagedPointKey = """
        -----BEGIN OPENSSH PRIVATE KEY-----
        b3BlbnNzaC1rZXktdjEAAAAAFmFlczI1Ni1nY21Ab3BlbnNzaC5jb20AAAAGYmNyeXB0AA
        AAGAAAABD8IKNQW7QL1f3ij1XMbHv8AAAAQAAAAAEAAABoAAAAE2VjZHNhLXNoYTItbmlz
        dHAyNTYAAAAIbmlzdHAyNTYAAABBBKAugB0k+QQsTi++2uQeJiSllXHDHGpQabNvA4pFWq
        alIo1FHRFg4akfDWJobhc8MldUygckESoQEaXx1PtfATgAAACg/ByLmA5A+KU2JdXWuNkF
        /B76E+A868lzWYC/amV5SrvuKRoThxQzLzMulpHhXUl/lqTQyhG1k8+dJBeSYdPrAlk9xA
        NTS0WTc5LA7YkynIakwvRly0cC/aAfzf5/5ggqxXPfuroPXDD0gHl9XVk9Ipf7zF/43Jho
        zZ/ugUSBeln7teCZGi3VsTT6Rk84aiHnqHq7N78N4z3XYSS2fXPvzIQbXeQiJ8t894VJ75
        AsyI8=
        -----END OPENSSH PRIVATE KEY-----

        """

    func testAKeyFileWithADamagedPointIsDamagedNotAWrongPassphrase() throws {
        let file = Array(Self.damagedPointKey.utf8)
        for passphrase in [nil, SecretBytes(copying: Array("any".utf8))] {
            XCTAssertThrowsError(try OpenSSHPrivateKey.parse(file, passphrase: passphrase)) { error in
                XCTAssertEqual((error as? KeyFormatError)?.kind, .invalid, "\(error)")
                XCTAssertTrue("\(error)".contains("not on the curve"), "\(error)")
            }
        }
    }
}
