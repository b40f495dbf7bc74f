// The three things hostbook asks of a security-key provider, whichever way it reaches it:
// a provider library loaded in-process (SecurityKeyLibrary) or OpenSSH's ssh-sk-helper
// running its built-in USB provider (SSHSKHelper). docs/security-keys.md says which and why.
public import KeyFormats
public import SecureMemory

public protocol SecurityKeyMiddleware: Sendable {
    /// The SSH signature blob of `data` by the credential the sk key `key` holds the
    /// handle of. `pin` for a key that needs user verification.
    func sign(_ key: PrivateKey, data: [UInt8], pin: SecretBytes?) throws(SecurityKeyError) -> [UInt8]

    /// A new credential on the authenticator, as its private key record (the handle).
    func enroll(_ request: SecurityKeyEnrollment, pin: SecretBytes?) throws(SecurityKeyError) -> (key: PrivateKey, attestation: SecurityKeyAttestation)

    /// The resident (discoverable) credentials the authenticator keeps for `ssh:` applications.
    func loadResidentKeys(pin: SecretBytes?) throws(SecurityKeyError) -> [PrivateKey]
}

/// What a new credential is made with.
public struct SecurityKeyEnrollment: Sendable {
    public var kind: SecurityKeyKind
    /// `ssh:` or `ssh:NAME` (OpenSSH's default is `ssh:`).
    public var application: String
    public var flags: SecurityKeyFlags
    public var comment: String
    /// The challenge the attestation signs (32 random bytes unless given).
    public var challenge: [UInt8]

    public init(kind: SecurityKeyKind, application: String = "ssh:", flags: SecurityKeyFlags = .userPresence,
                comment: String, challenge: [UInt8] = RandomBytes.generate(32)) {
        self.kind = kind
        self.application = application
        self.flags = flags
        self.comment = comment
        self.challenge = challenge
    }
}

/// A PIN as the C string a provider takes, in secure memory (nil stays nil; an empty PIN is none).
func withPINCString<R>(_ pin: SecretBytes?, _ body: (UnsafePointer<CChar>?) throws(SecurityKeyError) -> R) throws(SecurityKeyError) -> R {
    guard let pin, !pin.isEmpty else { return try body(nil) }
    let terminated = SecretBytes(count: pin.count + 1)
    terminated.withUnsafeMutableBytes { out in
        pin.withUnsafeBytes { out.copyMemory(from: $0) }
        out[pin.count] = 0
    }
    let result: Result<R, SecurityKeyError> = terminated.withUnsafeBytes { raw in
        do throws(SecurityKeyError) { return .success(try body(raw.baseAddress!.assumingMemoryBound(to: CChar.self))) } catch { return .failure(error) }
    }
    return try result.get()
}
