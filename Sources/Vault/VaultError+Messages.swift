// The words hostbook uses for each way the Secret Service can fail: what is wrong, then what
// to do. Once it is known which program answers (gnome-keyring-daemon, keepassxc, kwalletd),
// the message names it and the hint is that program's own fix. Tests compare these texts
// exactly, so change them together.

extension VaultError {
    /// KeePassXC's switch for the Secret Service, in its own menu words.
    static let keepassxcIntegration =
        "Tools > Settings > Secret Service Integration > Enable KeePassXC Freedesktop.org Secret Service integration"
    /// Where a KeePassXC database chooses the group it offers over the Secret Service.
    static let keepassxcExposedGroup =
        "Database > Database Settings > Secret Service Integration > Expose entries under this group"

    /// libsecret (or a library it needs) cannot be loaded: the vault cannot be used at all.
    static func libraryMissing(_ soname: String, reason: String) -> VaultError {
        VaultError(.failed, "the vault needs \(soname), which cannot be loaded (\(reason))",
                   hint: "Install the Debian package libsecret-1-0 (apt-get install libsecret-1-0).")
    }

    /// No session bus address at all (the usual case on a server or in a container).
    static func noSessionBus(reason: String) -> VaultError {
        VaultError(.noSessionBus, "no D-Bus session bus, so the keyring cannot be reached (\(reason))",
                   remedy: .desktopOrOwnKeyring)
    }

    /// A session bus address that nothing answers at.
    static func sessionBusUnreachable(reason: String) -> VaultError {
        VaultError(.noSessionBus, "the D-Bus session bus does not answer, so the keyring cannot be reached (\(reason))",
                   remedy: .desktopOrOwnKeyring)
    }

    /// hostbook's headless keyring is not running (`vault lock` stopped it) while the
    /// environment still names its bus.
    static func headlessKeyringStopped() -> VaultError {
        VaultError(.locked, "hostbook's keyring is locked", cause: .stoppedByVaultLock, remedy: .unlockOwnKeyring)
    }

    static func noService() -> VaultError {
        VaultError(.noService, "no Secret Service on the D-Bus session bus (nothing provides org.freedesktop.secrets)",
                   hint: "Install and start GNOME Keyring (apt-get install gnome-keyring), or in KeePassXC turn on "
                       + "\(keepassxcIntegration).")
    }

    static func noDefaultCollection(_ service: SecretServiceProgram?) -> VaultError {
        switch service {
        case .gnomeKeyring:
            VaultError(.noDefaultCollection, "gnome-keyring-daemon has no default keyring",
                       hint: "Create a keyring and make it the default (e.g. in Seahorse), or start gnome-keyring-daemon with --unlock.")
        case .keepassxc:
            VaultError(.noDefaultCollection, "keepassxc offers no database over the Secret Service",
                       hint: "Open a database in KeePassXC and expose a group of it (\(keepassxcExposedGroup)).")
        case .kwallet:
            VaultError(.noDefaultCollection, "kwalletd has no default wallet",
                       hint: "Create a wallet and make it the default in KWalletManager.")
        case .other(let name):
            VaultError(.noDefaultCollection, "the Secret Service (\(name)) has no default keyring",
                       hint: "Create a keyring in \(name) and make it the default.")
        case nil:
            VaultError(.noDefaultCollection, "the Secret Service has no default keyring",
                       hint: "Create a keyring and make it the default, then try again.")
        }
    }

    static func locked(_ service: SecretServiceProgram?) -> VaultError {
        switch service {
        case .gnomeKeyring:
            VaultError(.locked, "the default keyring of gnome-keyring-daemon is locked",
                       hint: "Unlock it (log in to the desktop, or unlock the keyring in Seahorse) and try again.")
        case .keepassxc:
            VaultError(.locked, "the database keepassxc offers as the default keyring is locked",
                       hint: "Unlock the database in KeePassXC and try again.")
        case .kwallet:
            VaultError(.locked, "the default wallet of kwalletd is locked",
                       hint: "Open the wallet (KWalletManager) and try again.")
        case .other(let name):
            VaultError(.locked, "the default keyring of \(name) is locked",
                       hint: "Unlock it in \(name) and try again.")
        case nil:
            VaultError(.locked, "the default keyring is locked",
                       hint: "Unlock it (log in to the desktop, or in your keyring app) and try again.")
        }
    }

    static func timedOut(milliseconds: Int, _ service: SecretServiceProgram?) -> VaultError {
        let more = "or give it more time with \(VaultTimeout.environmentVariable)=SECONDS"
        switch service {
        case .gnomeKeyring:
            return VaultError(.timedOut, "the Secret Service (gnome-keyring-daemon) did not answer within \(seconds(milliseconds))",
                              hint: "It may be hung or waiting for a prompt; restart it (gnome-keyring-daemon --replace) and try again.")
        case .keepassxc:
            return VaultError(.timedOut, "the Secret Service (keepassxc) did not answer within \(seconds(milliseconds))",
                              hint: "KeePassXC may be showing a dialog (unlock, access request): answer it in KeePassXC and try again, \(more).")
        case .kwallet:
            return VaultError(.timedOut, "the Secret Service (kwalletd) did not answer within \(seconds(milliseconds))",
                              hint: "kwalletd may be showing a dialog: answer it and try again, \(more).")
        case .other(let name):
            return VaultError(.timedOut, "the Secret Service (\(name)) did not answer within \(seconds(milliseconds))",
                              hint: "\(name) may be hung or showing a dialog: answer it or restart it, and try again.")
        case nil:
            return VaultError(.timedOut, "the Secret Service did not answer within \(seconds(milliseconds))",
                              hint: "The keyring daemon or the session bus may be hung; restart it and try again.")
        }
    }

    static func failed(_ action: String, _ detail: String?, _ service: SecretServiceProgram?) -> VaultError {
        let who = service.map { "the Secret Service (\($0.name))" } ?? "the Secret Service"
        let check = switch service {
        case .keepassxc: "Check that KeePassXC is running with its database unlocked and a group exposed (\(keepassxcExposedGroup))"
        case .some(let program): "Check that \(program.name) works"
        case nil: "Check that your keyring (GNOME Keyring, KeePassXC, KWallet) works"
        }
        return VaultError(.failed, "\(who) could not \(action)" + (detail.map { ": \($0)" } ?? ""),
                          hint: "\(check), then try again.")
    }

    /// `vault unlock`: gnome-keyring-daemon could not open the login keyring with it.
    static func wrongPassphrase() -> VaultError {
        VaultError(.wrongPassphrase, "wrong passphrase for the login keyring",
                   remedy: .typeLoginPassphrase)
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

    /// "5 s", "1.5 s".
    static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
