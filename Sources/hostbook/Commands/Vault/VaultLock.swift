// `hostbook vault lock`: stops hostbook's headless keyring (its gnome-keyring-daemon and
// bus; the login keyring stays on disk, encrypted) or, where the session's own Secret
// Service answers, locks its default keyring (VaultLocking does the work; this prints it).
import CommandLineKit
import Vault
import Workflows

enum VaultLock {
    static let spec = CommandSpec(
        ["vault", "lock"],
        summary: "Lock the vault: stop hostbook's own keyring, or lock the desktop's default keyring",
        discussion: """
        Stops the gnome-keyring-daemon and the bus that 'hostbook vault unlock' started (your \
        login keyring stays in ~/.local/share/keyrings, encrypted; 'vault unlock' starts them \
        again). A gnome-keyring-daemon it started on your session bus (a login without a desktop) \
        is stopped the same way. Where a desktop's Secret Service answers instead, locks its \
        default keyring. \
        A standing agent keeps running and is told to drop the keys it has read, the PINs of \
        its tokens, and its approval grants, at once (it reads them from the vault again when it next signs, so \
        it signs nothing until the vault is unlocked); an agent it cannot reach drops them \
        when it next finds the vault locked (within 15 s).
        """
    ) { inv in
        // Whatever was locked, the standing agent forgets the keys it read from the vault now
        // (with --json, `json` tells it and says so).
        try lock(inv)
        guard !inv.json else { return }
        for pid in StandingAgentSocket.dropKeys(environment: inv.environment) {
            inv.print("The standing agent (pid \(pid)) dropped the keys it held.")
        }
    }

    /// The --json object of `lock`, with what the standing agent did.
    private static func json(_ inv: Invocation, _ fields: [(String, JSONValue)]) {
        let agents = StandingAgentSocket.dropKeys(environment: inv.environment)
        inv.printJSON(.object(fields + [("agent_dropped_keys", .bool(!agents.isEmpty)),
                                        ("agent_pid", .optional(agents.first.map { Int($0) }))]))
    }

    private static func lock(_ inv: Invocation) throws {
        switch try VaultLocking.lock(environment: inv.environment) {
        case .headlessStopped(let busPID, let daemonPID):
            if inv.json {
                json(inv, [("headless", .bool(true)), ("bus", .string("private")), ("bus_pid", .int(Int(busPID))),
                           ("daemon_pid", .optional(daemonPID.map { Int($0) })), ("locked", .bool(true))])
            } else {
                let daemon = daemonPID.map { "gnome-keyring-daemon (pid \($0)) and " } ?? ""
                inv.print("locked: stopped \(daemon)its bus (pid \(busPID))")
            }
        case .sessionBusKeyringStopped(let daemonPID):
            if inv.json {
                json(inv, [("headless", .bool(true)), ("bus", .string("session")), ("bus_pid", .null),
                           ("daemon_pid", .int(Int(daemonPID))), ("locked", .bool(true))])
            } else {
                inv.print("locked: stopped gnome-keyring-daemon (pid \(daemonPID)) on your session bus")
            }
        case .notRunning:
            if inv.json {
                json(inv, [("headless", .bool(true)), ("bus", .null), ("bus_pid", .null), ("daemon_pid", .null), ("locked", .bool(true))])
            }
            inv.note("hostbook: hostbook's keyring is not running; nothing to lock")
        case .desktopLocked:
            if inv.json {
                json(inv, [("headless", .bool(false)), ("bus", .null), ("bus_pid", .null), ("daemon_pid", .null), ("locked", .bool(true))])
            } else {
                inv.print("locked: the default keyring of this session's Secret Service")
            }
        }
    }
}
