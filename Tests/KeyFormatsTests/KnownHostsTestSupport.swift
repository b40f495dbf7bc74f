// Shared helpers for the known_hosts tests: fixed keys and the upstream test data folder.
import Foundation
import KeyFormats

enum KnownHostsFixtures {
    /// ../shared/testdata relative to the package root; nil when absent (tests skip).
    static var hostkeysFolder: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.appendingPathComponent("../shared/testdata/openssh-hostkeys").standardizedFileURL
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }

    static func ed25519(_ seed: UInt8) -> PublicKey {
        PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) }))
    }

    static func rsa(_ seed: UInt8) -> PublicKey {
        var n = (0..<128).map { UInt8(truncatingIfNeeded: Int($0) &* 13 &+ Int(seed)) }
        n[0] = 0xc1; n[127] |= 1
        return PublicKey(.rsa(exponent: [1, 0, 1], modulus: n))
    }

    static func which(_ tool: String) -> String? {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        return nil
    }

    /// Runs a tool and returns (status, stdout).
    static func run(_ path: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
