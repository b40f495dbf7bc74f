// OpenSSH certificates, *-cert-v01@openssh.com (PROTOCOL.certkeys; ssh-formats.md §6).
// STUB — the parser is being written; the shape of the type is the contract.

public struct Certificate: Sendable, Equatable {
    public enum Role: UInt32, Sendable { case user = 1, host = 2 }

    /// The certificate type name, e.g. `ssh-ed25519-cert-v01@openssh.com`.
    public let type: String
    /// The whole certificate blob.
    public let blob: [UInt8]
    public let nonce: [UInt8]
    /// The certified plain key (its fingerprint is the certificate's fingerprint).
    public let key: PublicKey
    public let serial: UInt64
    public let role: Role
    public let keyID: String
    /// Empty means any principal.
    public let principals: [String]
    public let validAfter: UInt64
    public let validBefore: UInt64
    public let criticalOptions: [(name: String, data: [UInt8])]
    public let extensions: [(name: String, data: [UInt8])]
    /// The CA's public key.
    public let signatureKey: PublicKey
    /// The signature algorithm name (e.g. `ssh-ed25519`, `rsa-sha2-512`).
    public let signatureAlgorithm: String
    public let signature: [UInt8]

    public init(blob: [UInt8]) throws {
        throw KeyFormatError.unsupported("certificates are not implemented yet")
    }

    /// True when the CA signature over the blob verifies with `signatureKey`.
    public func verifySignature() -> Bool { false }

    /// True when `time` (seconds since the epoch) is within validAfter ≤ time < validBefore.
    public func isValid(at time: UInt64) -> Bool { validAfter <= time && time < validBefore }

    public static func == (a: Certificate, b: Certificate) -> Bool { a.blob == b.blob }
}
