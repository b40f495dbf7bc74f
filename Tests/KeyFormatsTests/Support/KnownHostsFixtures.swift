// Shared helpers for the known_hosts tests: fixed keys and the upstream test data folder.
import Foundation
import KeyFormats
import TestSupport

enum KnownHostsFixtures {
    /// ../shared/testdata relative to the package root; nil when absent (tests skip).
    static var hostkeysFolder: URL? {
        let dir = PackageRoot.sharedTestData("openssh-hostkeys")
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
}
