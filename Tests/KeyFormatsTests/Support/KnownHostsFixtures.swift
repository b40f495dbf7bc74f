// Shared helpers for the known_hosts tests: fixed keys and the host-key folder
// (testkeys/hostkeys, made by testkeys/make-known-hosts.sh).
import Foundation
import KeyFormats
import TestSupport

enum KnownHostsFixtures {
    /// Host keys and a known_hosts file with every kind of line (see the script's header).
    static var hostkeysFolder: URL { PackageRoot.file("testkeys/hostkeys") }

    static func ed25519(_ seed: UInt8) -> PublicKey {
        PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) }))
    }

    static func rsa(_ seed: UInt8) -> PublicKey {
        var n = (0..<128).map { UInt8(truncatingIfNeeded: Int($0) &* 13 &+ Int(seed)) }
        n[0] = 0xc1; n[127] |= 1
        return PublicKey(.rsa(exponent: [1, 0, 1], modulus: n))
    }
}
