// `hostbook vault ...`: the Secret Service where hostbook keeps passwords and private keys.
import Vault

enum VaultCommands {
    static let all: [CommandSpec] = [status, VaultUnlock.spec, VaultLock.spec]

    static let status = CommandSpec(
        ["vault", "status"],
        summary: "Check that the Secret Service (keyring) is reachable and unlocked",
        discussion: """
        Passwords and private keys live in the freedesktop Secret Service (GNOME Keyring, \
        KeePassXC, KWallet), reached over the D-Bus session bus. This checks the bus, the \
        service and its default keyring. Exits 0 when the vault is usable, 1 otherwise. What \
        is wrong and what to do are the two lines on stderr, and 'message' and 'fix' in --json.
        """
    ) { invocation in
        let health = VaultClient.health()
        var error = health.error
        // A login without a desktop whose session bus started a locked gnome-keyring: the
        // way out is `vault unlock`, not a desktop.
        if [.locked, .noDefaultCollection].contains(health.status), let found = error,
           UserBusKeyring.unlockWouldReplace(environment: invocation.environment) {
            error = VaultError(found.kind, found.message, hint: "There is no desktop here: run 'eval \"$(hostbook vault unlock)\"' to unlock your login keyring with its passphrase.")
        }
        // hostbook's own keyring (`vault unlock` without a desktop), when it is what answers.
        let privateBus = VaultClient.headlessBusInUse() != nil
        let onSessionBus = !privateBus && UserBusKeyring.running(environment: invocation.environment) != nil
        let headless: String? = privateBus ? "private" : onSessionBus ? "session" : nil
        if invocation.json {
            invocation.printJSON(.object([
                ("status", .string(health.status.name)),
                ("headless", .bool(headless != nil)),
                ("bus", .optional(headless)),
                ("service", .optional(health.service)),
                ("collection", .optional(health.collection)),
                ("message", .optional(error?.message)),
                // The same words as the hint line on stderr (VaultError+Messages.swift).
                ("fix", .optional(error?.hint)),
            ]))
        } else if health.status == .ok {
            let service = health.service ?? "the Secret Service"
            let collection = (health.label ?? health.collection).map { "\"\($0)\"" } ?? "(no label)"
            let which = privateBus ? " (hostbook's keyring, started by 'hostbook vault unlock')"
                : onSessionBus ? " (hostbook's keyring on your session bus, started by 'hostbook vault unlock')" : ""
            invocation.print("ok: \(service)\(which), default keyring \(collection) is unlocked")
        }
        if let error { throw error }
    }
}
