// `hostbook vault unlock`: where no desktop Secret Service answers (a login over SSH, a
// server), start or find hostbook's headless keyring (Vault's HeadlessKeyring) and print
// the environment lines for it, as `agent start` does. Where the session's own Secret
// Service answers, say so and start nothing. VaultUnlocking does the work; this asks the
// passphrase and prints.
import CommandLineKit
import Vault
import SecureMemory
import Workflows

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
        it. Where a session bus runs without a desktop (systemd's user bus in an SSH login), \
        starts gnome-keyring-daemon on that bus instead, in place of a locked one the bus \
        started, so later logins on that bus find it. A keyring that runs unlocked already is \
        used as it is. In a graphical session, says to unlock its keyring there and starts \
        nothing. A wrong passphrase exits 6 and leaves \
        nothing running; on a terminal the passphrase is asked again, 3 tries in all. \
        'hostbook vault lock' stops it.
        """,
        options: [PassphraseInput.options[0]]
    ) { inv in
        // On a terminal, a wrong passphrase is asked again (nothing is left running between
        // tries); --passphrase-stdin gets one.
        let tries = inv.args.flag(.passphraseStdin) ? 1 : maxTries
        let creating = !HeadlessKeyring.loginKeyringExists(environment: inv.environment)
        for attempt in 1...tries {
            do {
                try unlock(inv)
                if creating, HeadlessKeyring.loginKeyringExists(environment: inv.environment) {
                    HeadlessKeyring.recordLoginKeyringMade(environment: inv.environment)
                }
                return
            } catch let e as VaultError where e.kind == .wrongPassphrase {
                guard attempt < tries else { throw wrongPassphrase(e, inv) }
                inv.note("hostbook: wrong passphrase for the login keyring; try again (\(tries - attempt) more)")
            }
        }
    }

    /// How many passphrases a terminal may type.
    static let maxTries = 3

    /// The wrong-passphrase error with the hint for the keyring in use: one `vault unlock`
    /// made takes the passphrase given to it; one a desktop session made, its login password.
    private static func wrongPassphrase(_ e: VaultError, _ inv: Invocation) -> VaultError {
        let hint = HeadlessKeyring.loginKeyringMadeByHostbook(environment: inv.environment)
            ? "Type the passphrase you gave the first 'hostbook vault unlock', which made this login keyring; nothing was left running."
            : "This login keyring was made by a desktop session, not by hostbook: its passphrase is the password you logged in to that desktop with when it was made (or the one you changed it to there); nothing was left running."
        return VaultError(e.kind, e.message, hint: hint)
    }

    private static func unlock(_ inv: Invocation) throws {
        switch try VaultUnlocking.unlock(environment: inv.environment, passphrase: { try passphrase(inv) }) {
        case .sessionBusKeyringRunning(let pid, let address):
            if inv.json {
                inv.printJSON(.object([("headless", .bool(true)), ("bus", .string("session")), ("address", .optional(address)),
                                       ("service", .string("gnome-keyring-daemon")), ("bus_pid", .null),
                                       ("daemon_pid", .int(Int(pid))), ("started", .bool(false))]))
            }
            inv.note("hostbook: hostbook's keyring (gnome-keyring-daemon, pid \(pid)) on your session bus is unlocked; nothing to start")
        case .sessionServiceUnlocked(let service, let address):
            if inv.json {
                inv.printJSON(.object([("headless", .bool(false)), ("bus", .string("session")), ("address", .optional(address)),
                                       ("service", .optional(service)), ("bus_pid", .null), ("daemon_pid", .null),
                                       ("started", .bool(false))]))
            }
            inv.note("hostbook: this session's Secret Service (\(service ?? "the Secret Service")) is reachable and unlocked; nothing to start")
        case .sessionBusKeyring(let address, let daemonPID, let started):
            if inv.json {
                inv.printJSON(.object([("headless", .bool(true)), ("bus", .string("session")), ("address", .string(address)),
                                       ("service", .string("gnome-keyring-daemon")), ("bus_pid", .null),
                                       ("daemon_pid", .int(Int(daemonPID))), ("started", .bool(started))]))
                return
            }
            inv.print("DBUS_SESSION_BUS_ADDRESS=\(AgentCommands.shellQuoted(address)); export DBUS_SESSION_BUS_ADDRESS;")
            inv.print("echo Keyring pid \(daemonPID) on your session bus\(started ? "" : ", running already");")
        case .headless(let address, let busPID, let daemonPID, let started):
            if inv.json {
                inv.printJSON(.object([("headless", .bool(true)), ("bus", .string("private")), ("address", .string(address)),
                                       ("service", .string("gnome-keyring-daemon")), ("bus_pid", .int(Int(busPID))),
                                       ("daemon_pid", .optional(daemonPID.map { Int($0) })),
                                       ("started", .bool(started))]))
                return
            }
            inv.print("DBUS_SESSION_BUS_ADDRESS=\(AgentCommands.shellQuoted(address)); export DBUS_SESSION_BUS_ADDRESS;")
            inv.print("echo Keyring pid \(daemonPID.map(String.init) ?? "?")\(started ? "" : ", running already");")
        case .lockedOnDesktop(let service):
            throw lockedOnDesktop(service)
        }
    }

    /// A desktop's keyring (or one hostbook may not replace) is locked: unlock it there.
    private static func lockedOnDesktop(_ service: String?) -> VaultError {
        VaultError(.locked, "this session's Secret Service (\(service ?? "unknown")) is reachable, but its default keyring is locked",
                   hint: "Unlock it on the desktop (log in there, or unlock the keyring in Seahorse or KeePassXC); hostbook starts no second keyring beside it.")
    }

    /// The login keyring's passphrase: --passphrase-stdin or a no-echo prompt (twice when the
    /// keyring is made now). gnome-keyring makes no usable keyring with an empty one.
    private static func passphrase(_ inv: Invocation) throws -> SecretBytes {
        let secret: SecretBytes
        if inv.args.flag(.passphraseStdin) {
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
