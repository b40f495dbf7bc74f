// What `ssh-keygen -Y sign` (and git through it) asks an agent to sign: PROTOCOL.sshsig §3,
// "Signed Data" — the six bytes "SSHSIG", then the namespace, a reserved string, the hash
// algorithm and H(message). ssh-agent.c parse_sshsig_request recognises the same shape; this
// reader also requires what sshsig.c (sshsig_wrap_sign) always writes: a namespace that is
// non-empty text, and a hash of the length its algorithm ("sha256" or "sha512") gives. The
// reader is SSHReader, which checks every length against what is left before it reads.
import KeyFormats

public struct SSHSIGRequest: Sendable, Equatable {
    /// MAGIC_PREAMBLE of PROTOCOL.sshsig.
    public static let preamble: [UInt8] = Array("SSHSIG".utf8)
    /// The hash algorithms sshsig.c signs with, and their digest lengths.
    static let hashLengths = ["sha256": 32, "sha512": 64]

    /// What the signature is for (`git`, `file`, ...): `ssh-keygen -Y sign -n NAMESPACE`.
    public let namespace: String
    public let hashAlgorithm: String
    public let hash: [UInt8]

    /// nil when `data` is not such a request (anything after the hash refuses it, as in
    /// parse_sshsig_request).
    public static func parse(_ data: [UInt8]) -> SSHSIGRequest? {
        var r = SSHReader(data)
        guard (try? r.readBytes(preamble.count)) == preamble,
              let namespace = try? r.readText("namespace"), !namespace.isEmpty,
              (try? r.readString()) != nil,
              let algorithm = try? r.readText("hash algorithm"),
              let hash = try? r.readString(), r.isAtEnd,
              let length = hashLengths[algorithm], hash.count == length else { return nil }
        return SSHSIGRequest(namespace: namespace, hashAlgorithm: algorithm, hash: hash)
    }
}
