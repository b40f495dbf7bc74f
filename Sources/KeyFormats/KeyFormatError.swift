// One error type for every parser in KeyFormats: a small `Kind` that callers branch on,
// plus a human-readable reason. Only the kinds a caller must branch on are distinct
// (wrong passphrase, passphrase needed, unsupported); everything else is `.invalid`.

public struct KeyFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The input is damaged, truncated or not in the expected format.
        case invalid
        /// The input is well-formed but uses something hostbook does not support
        /// (a cipher, KDF, key type or Argon2 flavour).
        case unsupported
        /// The key is encrypted and no passphrase was given.
        case passphraseRequired
        /// The passphrase did not decrypt the key (check integers, AEAD tag or MAC differ).
        case wrongPassphrase
    }

    public let kind: Kind
    /// One line, in a user's words, saying what is wrong. Never contains secret bytes.
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public static func invalid(_ reason: String) -> KeyFormatError { .init(.invalid, reason) }
    public static func unsupported(_ reason: String) -> KeyFormatError { .init(.unsupported, reason) }
    public static let wrongPassphrase = KeyFormatError(.wrongPassphrase, "incorrect passphrase")
    public static let passphraseRequired = KeyFormatError(.passphraseRequired, "the key is encrypted and needs a passphrase")

    public var description: String { reason }
}
