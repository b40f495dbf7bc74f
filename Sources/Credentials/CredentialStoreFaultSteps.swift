// The named steps of CredentialStore's writes across the two stores, where the fault
// campaign stops hostbook with SIGKILL (System's FaultStep; HOSTBOOK_FAULT_STEP, debug
// builds only; docs/reliability.md lists them with what each kill must leave behind).
public import System

extension FaultStep {
    /// `keys import`: the key's vault item is stored, its row not yet.
    public static let keyItemStored = FaultStep("key.item-stored")
    /// `keys import`: the row is saved (the write is done).
    public static let keyRowSaved = FaultStep("key.row-saved")
    /// `keys remove`: the row is deleted, the item not yet.
    public static let keyRowRemoved = FaultStep("key.row-removed")
    /// `add --password-stdin`: the password's item is stored inside the row's open transaction.
    public static let passwordItemStored = FaultStep("password.item-stored")
    /// `add --password-stdin`: the row is committed.
    public static let passwordRowSaved = FaultStep("password.row-saved")
    /// `edit --password-stdin`: the new password is staged beside the old one inside the
    /// row's open transaction.
    public static let passwordStaged = FaultStep("password.staged")
    /// `edit --password-stdin`: the row is committed, the old password not yet deleted.
    public static let passwordEditSaved = FaultStep("password.edit-saved")
    /// `remove`: the row is deleted, the password not yet.
    public static let hostRowRemoved = FaultStep("host.row-removed")
    /// `bundle import`/`update`: the bundle's rows are committed, the dropped hosts'
    /// passwords not yet deleted.
    public static let bundleRowsSaved = FaultStep("bundle.rows-saved")

    /// Every step of this file, for the tests and the documentation.
    public static let credentialSteps: [FaultStep] = [
        .keyItemStored, .keyRowSaved, .keyRowRemoved, .passwordItemStored, .passwordRowSaved,
        .passwordStaged, .passwordEditSaved, .hostRowRemoved, .bundleRowsSaved,
    ]
}
