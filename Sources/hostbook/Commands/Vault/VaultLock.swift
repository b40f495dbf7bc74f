// `hostbook vault lock`: stops hostbook's headless keyring (its gnome-keyring-daemon and
// bus; the login keyring stays on disk, encrypted) or, where the session's own Secret
// Service answers, locks its default keyring.
import Vault

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
        A standing agent keeps running, and drops the keys it has read when it next finds the \
        vault locked (within 15 s).
        """
    ) { inv in
        if let stopped = HeadlessKeyring.lock(environment: inv.environment) {
            if inv.json {
                inv.printJSON(.object([("headless", .bool(true)), ("bus", .string("private")), ("bus_pid", .int(Int(stopped.busPID))),
                                       ("daemon_pid", .optional(stopped.daemonPID.map { Int($0) })), ("locked", .bool(true))]))
            } else {
                let daemon = stopped.daemonPID.map { "gnome-keyring-daemon (pid \($0)) and " } ?? ""
                inv.print("locked: stopped \(daemon)its bus (pid \(stopped.busPID))")
            }
            return
        }
        if let stopped = UserBusKeyring.lock(environment: inv.environment) {
            if inv.json {
                inv.printJSON(.object([("headless", .bool(true)), ("bus", .string("session")), ("bus_pid", .null),
                                       ("daemon_pid", .int(Int(stopped))), ("locked", .bool(true))]))
            } else {
                inv.print("locked: stopped gnome-keyring-daemon (pid \(stopped)) on your session bus")
            }
            return
        }
        guard HeadlessBus.namesOtherBus(environment: inv.environment) else {
            if inv.json {
                inv.printJSON(.object([("headless", .bool(true)), ("bus", .null), ("bus_pid", .null), ("daemon_pid", .null), ("locked", .bool(true))]))
            }
            inv.note("hostbook: hostbook's keyring is not running; nothing to lock")
            return
        }
        try VaultClient.lockDefaultCollection()
        if inv.json {
            inv.printJSON(.object([("headless", .bool(false)), ("bus", .null), ("bus_pid", .null), ("daemon_pid", .null), ("locked", .bool(true))]))
        } else {
            inv.print("locked: the default keyring of this session's Secret Service")
        }
    }
}
