// `hostbook vault unlock`: where no desktop Secret Service answers (a login over SSH, a
// server), start or find hostbook's headless keyring (Vault's HeadlessKeyring) and print
// the environment lines for it, as `agent start` does. Where the session's own Secret
// Service answers, say so and start nothing.
import Vault
import SecureMemory

enum VaultUnlock {
    static let spec = CommandSpec(
        ["vault", "unlock"],
        summary: "Start or unlock hostbook's own keyring where there is no desktop, and print its environment",
        discussion: """
        Without a desktop session (e.g. logged in over SSH), starts a private D-Bus session bus \
        ($XDG_RUNTIME_DIR/hostbook/bus) and your own gnome-keyring-daemon on it, unlocking your \
        login keyring with the passphrase (the first time, the keyring is created with it and \
        kept encrypted in ~/.local/share/keyrings). Prints DBUS_SESSION_BUS_ADDRESS for eval \
        "$(hostbook vault unlock)"; other hostbook commands of yours find the keyring without \
        it. A keyring that runs unlocked already is used as it is. Where a desktop's Secret \
        Service answers, says so and starts nothing. A wrong passphrase exits 6 and leaves \
        nothing running. 'hostbook vault lock' stops it.
        """,
        options: [PassphraseInput.options[0]]
    ) { inv in
        if HeadlessBus.namesOtherBus(environment: inv.environment) {
            let health = VaultClient.health()
            switch health.status {
            case .ok:
                let service = health.service ?? "the Secret Service"
                if inv.json {
                    inv.printJSON(.object([("headless", .bool(false)), ("address", .optional(inv.environment["DBUS_SESSION_BUS_ADDRESS"])),
                                           ("service", .optional(health.service)), ("bus_pid", .null), ("daemon_pid", .null),
                                           ("started", .bool(false))]))
                }
                inv.note("hostbook: this session's Secret Service (\(service)) is reachable and unlocked; nothing to start")
                return
            case .locked:
                throw VaultError(.locked, "this session's Secret Service (\(health.service ?? "unknown")) is reachable, but its default keyring is locked",
                                 hint: "Unlock it on the desktop (log in there, or unlock the keyring in Seahorse or KeePassXC); hostbook starts no second keyring beside it.")
            case .noSessionBus, .noService:
                break  // No desktop keyring here: hostbook's own one.
            case .noDefaultCollection, .timedOut:
                if let error = health.error { throw error }
            }
        }
        let outcome = try HeadlessKeyring.unlock(environment: inv.environment) { try passphrase(inv) }
        let keyring = outcome.keyring
        if inv.json {
            inv.printJSON(.object([("headless", .bool(true)), ("address", .string(keyring.address)),
                                   ("service", .string("gnome-keyring-daemon")), ("bus_pid", .int(Int(keyring.busPID))),
                                   ("daemon_pid", .optional(keyring.daemonPID.map { Int($0) })),
                                   ("started", .bool(outcome.startedDaemon))]))
            return
        }
        inv.print("DBUS_SESSION_BUS_ADDRESS=\(AgentCommands.shellQuoted(keyring.address)); export DBUS_SESSION_BUS_ADDRESS;")
        inv.print("echo Keyring pid \(keyring.daemonPID.map(String.init) ?? "?")\(outcome.startedDaemon ? "" : ", running already");")
    }

    /// The login keyring's passphrase: --passphrase-stdin or a no-echo prompt (twice when the
    /// keyring is made now). gnome-keyring makes no usable keyring with an empty one.
    private static func passphrase(_ inv: Invocation) throws -> SecretBytes {
        let secret: SecretBytes
        if inv.args.flag("passphrase-stdin") {
            secret = try Terminal.readSecretFromStdin(what: "the passphrase")
        } else {
            try inv.requirePrompt(for: "the login keyring's passphrase", alternative: "--passphrase-stdin")
            let creating = !HeadlessKeyring.loginKeyringExists(environment: inv.environment)
            secret = try inv.promptSecret(creating ? "New passphrase for the login keyring: " : "Passphrase for the login keyring: ",
                                          alternative: "--passphrase-stdin")
            if creating, !secret.isEmpty {
                let again = try inv.promptSecret("Repeat the passphrase: ", alternative: "--passphrase-stdin")
                guard again.constantTimeEquals(secret) else {
                    throw CLIError.rejected("the two passphrases do not match; nothing was started")
                }
            }
        }
        guard !secret.isEmpty else {
            throw CLIError.rejected("the passphrase is empty", hint: "gnome-keyring makes no usable keyring without one; give a passphrase.")
        }
        return secret
    }
}
