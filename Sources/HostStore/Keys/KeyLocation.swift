// Where a saved key's private half lives (the `location` column of `keys`, schema v12).
// The database keeps only public halves whatever the location; this says which signer
// the agents use for a key (Sessions' KeySigners) and what `keys list` / `keys show` say.
//   vault         the private key is in the Secret Service vault (every key before v12)
//   security-key  a FIDO2 authenticator signs (sk-* keys; the vault keeps the key handle)
//   token         a PKCS#11 token signs (the database keeps the token's public key)
//   upstream      another ssh agent holds the key (`hostbook keys import-agent`);
//                 hostbook lists and signs through it, and never adds or removes its keys
public import KeyFormats

public enum KeyLocation: String, Sendable, CaseIterable {
    case vault
    case securityKey = "security-key"
    case token
    case upstream

    /// Whether the vault holds an item for such a key: the private key, or an sk key's
    /// handle. A token's or another agent's key has none.
    public var hasVaultItem: Bool { self == .vault || self == .securityKey }

    /// Where a key read from a private key file lives: an sk key's on its authenticator
    /// (the file holds only its handle), any other in the vault.
    public static func ofPrivateKeyFile(_ publicKey: PublicKey) -> KeyLocation {
        publicKey.needsSecurityKey ? .securityKey : .vault
    }
}

/// What a security key asks of its user before it signs, from the flags the key was
/// enrolled with (PROTOCOL.u2f: 0x01 user presence required, 0x04 user verification
/// required; `ssh-keygen -O no-touch-required` clears the first, `-O verify-required` sets
/// the second).
public struct SecurityKeyFlags: Sendable, Equatable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let userPresence: UInt8 = 0x01
    public static let userVerification: UInt8 = 0x04

    /// A touch before each signature.
    public var needsPresence: Bool { rawValue & Self.userPresence != 0 }
    /// A PIN (or another user verification) before each signature.
    public var needsPIN: Bool { rawValue & Self.userVerification != 0 }
}

extension PrivateKey {
    /// An sk key's enrolment flags (nil for any other key).
    public var securityKeyFlags: SecurityKeyFlags? {
        switch algorithm {
        case .skEd25519(_, _, let flags, _, _), .skECDSA(_, _, _, let flags, _, _): SecurityKeyFlags(rawValue: flags)
        default: nil
        }
    }
}
