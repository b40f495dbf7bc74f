// The words hostbook uses for each way the Secret Service can fail: what is wrong, then what
// to do. Tests compare these texts exactly, so change them together.

extension VaultError {
    static let withKeyringHint =
        "Run hostbook inside a desktop session, or start a session bus with an unlocked keyring "
        + "(scripts/with-keyring, or dbus-run-session + gnome-keyring-daemon --unlock; see the README)."

    /// No session bus address at all (the usual case on a server or in a container).
    static func noSessionBus(reason: String) -> VaultError {
        VaultError(.noSessionBus, "no D-Bus session bus, so the keyring cannot be reached (\(reason))",
                   hint: withKeyringHint)
    }

    /// A session bus address that nothing answers at.
    static func sessionBusUnreachable(reason: String) -> VaultError {
        VaultError(.noSessionBus, "the D-Bus session bus does not answer, so the keyring cannot be reached (\(reason))",
                   hint: withKeyringHint)
    }

    static func noService() -> VaultError {
        VaultError(.noService, "no Secret Service on the D-Bus session bus (nothing provides org.freedesktop.secrets)",
                   hint: "Install and start GNOME Keyring (apt-get install gnome-keyring) or KeePassXC with its Secret Service integration on.")
    }

    static func noDefaultCollection() -> VaultError {
        VaultError(.noDefaultCollection, "the Secret Service has no default keyring",
                   hint: "Create a keyring and make it the default (e.g. in Seahorse), or start gnome-keyring-daemon with --unlock.")
    }

    static func locked() -> VaultError {
        VaultError(.locked, "the default keyring is locked",
                   hint: "Unlock it (log in to the desktop, or unlock it in Seahorse or KeePassXC) and try again.")
    }

    static func timedOut(milliseconds: Int) -> VaultError {
        VaultError(.timedOut, "the Secret Service did not answer within \(seconds(milliseconds))",
                   hint: "The keyring daemon may be hung or waiting for a prompt; restart it (e.g. gnome-keyring-daemon --replace) and try again.")
    }

    static func unknownPayloadVersion(_ version: UInt8, item: VaultItemID) -> VaultError {
        VaultError(.unknownPayloadVersion,
                   "the vault item for \(item.kind.rawValue) \(item.owner) has payload version \(version), which this hostbook cannot read",
                   hint: "It was written by another (newer?) program; upgrade hostbook, or store the secret again.")
    }

    static func emptyPayload(item: VaultItemID) -> VaultError {
        VaultError(.failed, "the vault item for \(item.kind.rawValue) \(item.owner) is empty",
                   hint: "Store the secret again.")
    }

    private static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
