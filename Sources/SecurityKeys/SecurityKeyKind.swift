// The two kinds of security-key keys, and how the middleware interface numbers them.
public import KeyFormats

public enum SecurityKeyKind: String, Sendable, CaseIterable {
    case ed25519 = "ed25519-sk"
    case ecdsa = "ecdsa-sk"

    /// The algorithm number of the middleware interface (0 ECDSA P-256, 1 Ed25519).
    public var providerAlgorithm: UInt32 {
        switch self { case .ecdsa: 0; case .ed25519: 1 }
    }

    /// The SSH key type name.
    public var keyType: String {
        switch self { case .ed25519: PublicKey.skEd25519Type; case .ecdsa: PublicKey.skECDSAType }
    }

    /// The kind of `key`, or nil for a key that is not held by an authenticator.
    public init?(of key: PrivateKey) {
        switch key.algorithm {
        case .skEd25519: self = .ed25519
        case .skECDSA(let curve, _, _, _, _, _) where curve == .p256: self = .ecdsa
        default: return nil
        }
    }
}

/// The flags a key is made with and its signatures ask for (PROTOCOL.u2f; the middleware's
/// SSH_SK_* values).
public struct SecurityKeyFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A touch is needed for each signature (OpenSSH sets it unless told `no-touch-required`).
    public static let userPresence = SecurityKeyFlags(rawValue: 0x01)
    /// The PIN (or a biometric) is needed for each signature.
    public static let userVerification = SecurityKeyFlags(rawValue: 0x04)
    /// The credential is kept on the authenticator (a resident, discoverable key).
    public static let resident = SecurityKeyFlags(rawValue: 0x20)
}

/// What the middleware needs of an sk key to sign with it: the key's kind, application,
/// flags and handle (the authenticator's wrapped credential; no secret of hostbook's).
public struct SecurityKeyHandle: Sendable, Equatable {
    public let kind: SecurityKeyKind
    public let application: String
    public let flags: SecurityKeyFlags
    public let keyHandle: [UInt8]

    public init(kind: SecurityKeyKind, application: String, flags: SecurityKeyFlags, keyHandle: [UInt8]) {
        self.kind = kind
        self.application = application
        self.flags = flags
        self.keyHandle = keyHandle
    }

    /// The handle of `key`; nil for a key that is not a security-key one.
    public init?(_ key: PrivateKey) {
        switch key.algorithm {
        case .skEd25519(_, let application, let flags, let handle, _):
            self.init(kind: .ed25519, application: application, flags: SecurityKeyFlags(rawValue: flags), keyHandle: handle)
        case .skECDSA(let curve, _, let application, let flags, let handle, _) where curve == .p256:
            self.init(kind: .ecdsa, application: application, flags: SecurityKeyFlags(rawValue: flags), keyHandle: handle)
        default:
            return nil
        }
    }
}
