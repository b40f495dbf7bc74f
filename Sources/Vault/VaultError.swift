// The error every VaultClient call throws: a kind callers branch on, and words for the user.
// (SecretPayload.decode's own DecodeError is turned into one by VaultClient.lookup.)
// The texts are made in VaultError+Messages.swift; a fix that is a hostbook command is a
// Remedy, and a cause that is one (`vault lock` stopped hostbook's keyring) a Cause, both
// worded by the executable (VaultError+Presentation.swift), which makes the error's
// `message` from `text` and the cause.

public struct VaultError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case noSessionBus, noService, noDefaultCollection, locked, timedOut
        case unknownPayloadVersion
        /// `vault unlock`: the passphrase does not open the headless login keyring.
        case wrongPassphrase
        case failed
    }
    /// The fix that is a hostbook command, as data: the executable words it
    /// (VaultError+Presentation.swift), so no command line is written in this library.
    public enum Remedy: Sendable, Equatable {
        /// Run inside a desktop session, or start hostbook's own keyring (`vault unlock`).
        case desktopOrOwnKeyring
        /// Unlock hostbook's own keyring, which `vault lock` stopped (`vault unlock`).
        case unlockOwnKeyring
        /// Type the login keyring's passphrase, the one the first `vault unlock` made.
        case typeLoginPassphrase
        /// `vault lock`, then `vault unlock` again.
        case lockThenUnlock
        /// Remove what is in the way, then `vault unlock` again.
        case removeThenUnlock
        /// Install `packages` (Debian), then `vault unlock` again.
        case installThenUnlock(packages: String)
        /// Unset DBUS_SESSION_BUS_ADDRESS, then `vault unlock` again.
        case unsetBusThenUnlock
        /// `vault unlock` again.
        case unlockAgain
    }

    /// Why, when that is a hostbook command: data the executable words after `text`.
    public enum Cause: Sendable, Equatable {
        /// hostbook's own keyring is not running: `vault lock` stopped it (the environment
        /// still names its bus).
        case stoppedByVaultLock
    }

    public let kind: Kind
    /// What is wrong, one line, in a user's words (without `cause`).
    public let text: String
    /// Why, when that is a hostbook command, or nil.
    public let cause: Cause?
    /// What to do about it when that names no hostbook command, or nil (see `remedy`).
    public let advice: String?
    /// What to do about it when that is a hostbook command, or nil.
    public let remedy: Remedy?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.text = message
        self.cause = nil
        self.advice = hint
        self.remedy = nil
    }

    public init(_ kind: Kind, _ message: String, cause: Cause? = nil, remedy: Remedy) {
        self.kind = kind
        self.text = message
        self.cause = cause
        self.advice = nil
        self.remedy = remedy
    }

    public var description: String { text }
}
