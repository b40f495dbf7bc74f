// `hostbook vault lock`'s work: stop hostbook's headless keyring (its gnome-keyring-daemon
// and bus; the login keyring stays on disk, encrypted), or the gnome-keyring-daemon it
// started on the session bus, or, where the session's own Secret Service answers, lock its
// default keyring; then tell the standing agent to drop the keys it read from the vault.
import Vault

public enum VaultLocking {
    public enum Outcome: Sendable, Equatable {
        /// hostbook's private bus (`busPID`) and its daemon were stopped.
        case headlessStopped(busPID: Int32, daemonPID: Int32?)
        /// hostbook's gnome-keyring-daemon on the session bus was stopped.
        case sessionBusKeyringStopped(daemonPID: Int32)
        /// hostbook's keyring is not running and no other bus is named: nothing to lock.
        case notRunning
        /// The default keyring of the session's Secret Service was locked.
        case desktopLocked
    }

    public static func lock(environment: [String: String]) throws -> Outcome {
        if let stopped = HeadlessKeyring.lock(environment: environment) {
            return .headlessStopped(busPID: stopped.busPID, daemonPID: stopped.daemonPID)
        }
        if let stopped = UserBusKeyring.lock(environment: environment) { return .sessionBusKeyringStopped(daemonPID: stopped) }
        guard HeadlessBus.namesOtherBus(environment: environment) else { return .notRunning }
        try VaultClient.lockDefaultCollection()
        return .desktopLocked
    }
}
