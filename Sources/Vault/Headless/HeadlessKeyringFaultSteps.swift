// The named steps of `vault unlock` where the fault campaign stops hostbook with SIGKILL
// (System's FaultStep; HOSTBOOK_FAULT_STEP, debug builds only; docs/reliability.md).
public import System

extension FaultStep {
    /// `vault unlock`: the private bus runs, no keyring daemon yet.
    public static let unlockBusStarted = FaultStep("unlock.bus-started")
    /// `vault unlock`: the keyring daemon is started (the passphrase handed over), not yet
    /// known to be unlocked.
    public static let unlockDaemonStarted = FaultStep("unlock.daemon-started")

    /// Every step of this file, for the tests and the documentation.
    public static let unlockSteps: [FaultStep] = [.unlockBusStarted, .unlockDaemonStarted]
}
