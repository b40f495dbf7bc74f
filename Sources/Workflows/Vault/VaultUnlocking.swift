// `hostbook vault unlock`'s work: which keyring serves this login and what to start. Where a
// session bus names another bus than hostbook's own (a desktop, or systemd's user bus over
// SSH): the session's Secret Service when it answers unlocked, else the user's
// gnome-keyring-daemon on that bus (a login without a desktop); otherwise hostbook's own
// headless keyring on its private bus (Vault's HeadlessKeyring). The executable asks the
// passphrase and prints the outcome (Commands/Vault/VaultUnlock.swift).
import SecureMemory
import Vault

public enum VaultUnlocking {
    public enum Outcome: Sendable, Equatable {
        /// hostbook's gnome-keyring-daemon (`daemonPID`) on the session bus at `address` is
        /// unlocked already: nothing started.
        case sessionBusKeyringRunning(daemonPID: Int32, address: String?)
        /// The session's own Secret Service (`service`) answers unlocked: nothing started.
        case sessionServiceUnlocked(service: String?, address: String?)
        /// The user's gnome-keyring-daemon on the session bus at `address`, `started` now or running.
        case sessionBusKeyring(address: String, daemonPID: Int32, started: Bool)
        /// hostbook's own keyring on its private bus at `address`.
        case headless(address: String, busPID: Int32, daemonPID: Int32?, started: Bool)
        /// A desktop's keyring (`service`), or one hostbook may not replace, is locked: it is
        /// unlocked there, and nothing was started.
        case lockedOnDesktop(service: String?)
    }

    /// Finds or starts the keyring of this login; `passphrase` is asked only when a keyring
    /// is unlocked or made now. A wrong passphrase is Vault's `.wrongPassphrase` error.
    public static func unlock(environment: [String: String], passphrase: () throws -> SecretBytes) throws -> Outcome {
        if HeadlessBus.namesOtherBus(environment: environment) {
            let health = VaultClient.health()
            let graphical = GraphicalSession.isPresent(environment: environment)
            switch health.status {
            case .ok:
                if let pid = UserBusKeyring.running(environment: environment) {
                    return .sessionBusKeyringRunning(daemonPID: pid, address: UserBusKeyring.sessionAddress(environment: environment))
                }
                return .sessionServiceUnlocked(service: health.service, address: environment["DBUS_SESSION_BUS_ADDRESS"])
            case .locked where !graphical, .noService where !graphical, .noDefaultCollection where !graphical:
                // A login with a session bus but no desktop (systemd's user bus over SSH): the
                // user's keyring on that bus, where every later login finds it.
                guard let outcome = try UserBusKeyring.unlock(environment: environment, passphrase: passphrase) else {
                    return .lockedOnDesktop(service: health.service)
                }
                return .sessionBusKeyring(address: UserBusKeyring.sessionAddress(environment: environment) ?? "",
                                          daemonPID: outcome.daemonPID, started: outcome.started)
            case .locked:
                return .lockedOnDesktop(service: health.service)
            case .noSessionBus, .noService:
                break  // No desktop keyring here: hostbook's own one.
            case .noDefaultCollection, .timedOut:
                if let error = health.error { throw error }
            }
        }
        let outcome = try HeadlessKeyring.unlock(environment: environment, passphrase: passphrase)
        let keyring = outcome.keyring
        return .headless(address: keyring.address, busPID: keyring.busPID, daemonPID: keyring.daemonPID, started: outcome.startedDaemon)
    }
}
