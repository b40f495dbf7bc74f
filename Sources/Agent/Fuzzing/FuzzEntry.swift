// The bodies of the Agent libFuzzer targets that read what another program sends hostbook
// (fuzz/targets/agent-upstream-reply.swift) and of their replay test
// (Tests/AgentTests/UpstreamReplyFuzzRegressionTests.swift): both call these, so what the
// fuzzer ran and what the test replays cannot drift apart. Each body must only not crash.
// Internal: reached through `@testable import`.
import KeyFormats

enum FuzzEntry {
    /// One Ed25519 and one RSA public key (fixed bytes, no generation per input) that a
    /// sign reply is checked against.
    static let ed25519Key = PublicKey(.ed25519(publicKey: Array(repeating: 7, count: 32)))
    static let rsaKey = PublicKey(.rsa(exponent: [1, 0, 1], modulus: [0xc5] + Array(repeating: 0x3b, count: 255)))

    /// An upstream agent's reply body as both requests read it: the identities answer (with
    /// the standard and a small key limit, every listed blob parsed as a key), and the sign
    /// response checked against each key for each RSA hash.
    static func upstreamReply(_ bytes: [UInt8]) {
        for maxKeys in [UpstreamAgentLimits.standard.maxKeys, 2] {
            if let keys = try? UpstreamAgentReply.identities(bytes, maxKeys: maxKeys) {
                if keys.count > maxKeys { fatalError("a listing longer than its limit was accepted") }
                for key in keys { _ = key.publicKey }
            }
        }
        for key in [ed25519Key, rsaKey] {
            for hash in [RSASignatureHash.sha1, .sha256, .sha512] {
                // No key signs this fixed data: a reply must never pass as its signature.
                if (try? UpstreamAgentReply.signature(bytes, key: key, data: [1, 2, 3], rsaHash: hash)) != nil {
                    fatalError("a signature no one made verified")
                }
            }
        }
    }
}
