// The error every VaultClient call throws: a kind callers branch on, and words for the user.
// (SecretPayload.decode's own DecodeError is turned into one by VaultClient.lookup.)
// The texts are made in VaultError+Messages.swift.

public struct VaultError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case noSessionBus, noService, noDefaultCollection, locked, timedOut
        case unknownPayloadVersion
        /// `vault unlock`: the passphrase does not open the headless login keyring.
        case wrongPassphrase
        case failed
    }
    public let kind: Kind
    /// What is wrong, one line, in a user's words.
    public let message: String
    /// What to do about it.
    public let hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}
