// What a Tailscale import will do (TailscaleImportPlanner decides it; TailscaleImportApplier
// writes it): for each device, the host to add, update, leave or skip, its node row and tag
// changes, and each host key's decision for each name. The report — what the command
// prints, with --dry-run or not — is made from the plan alone.
import ImportFormats
import KeyFormats

/// What happens to one device's host.
enum TailscaleHostStep: Equatable {
    /// Not imported (the device's `TailscaleHostResult.reason` says why).
    case skip
    /// A new host, with the device's node row.
    case add(HostBulkWriter.NewRow, node: TailscaleNodeRow)
    /// The existing host `id` (imported from this node before) gets a new hostname, the
    /// user when it has none, and the tags move from `oldTags` to the node row's tags.
    case update(id: Int64, hostname: String, user: String?, oldTags: [String], node: TailscaleNodeRow)
    /// The existing host `id` is as the device describes it: nothing to write.
    case leave(id: Int64)
}

/// One device key for one of the device's names, and HostKeyPolicy's verdict on it.
struct TailscaleTrustStep: Equatable {
    let pattern: String
    let key: PublicKey
    let fingerprint: String
    let decision: TailscaleKeyStep
    /// Set when a later device of the same import may find this entry (its name appears in
    /// more than one device): the planner's own id for it, negative, which a later
    /// `.rotated` step may name.
    let plannedID: Int64?

    /// True when the step writes a known_hosts entry.
    var writes: Bool {
        switch decision {
        case .new, .rotated: return true
        case .alreadyTrusted, .revoked, .conflict: return false
        }
    }
}

/// Everything the import does for one device.
struct TailscaleDevicePlan: Equatable {
    let nodeID: String
    let host: TailscaleHostStep
    /// Each valid key for each name, in the order they are written.
    let keys: [TailscaleTrustStep]
    /// The device's line in the report.
    let result: TailscaleHostResult
    let rotations: [TailscaleKeyRotation]
    let keyProblems: [TailscaleKeyProblem]

    var entriesTrusted: Int { keys.reduce(0) { $0 + ($1.writes ? 1 : 0) } }
}

/// A whole import's plan.
struct TailscaleImportPlan {
    var notes: [ImportNote] = []
    var devices: [TailscaleDevicePlan] = []

    /// The report of this plan.
    func report(format: TailscaleFormat, dryRun: Bool) -> TailscaleImportReport {
        var report = TailscaleImportReport(format: format, dryRun: dryRun)
        report.notes = notes
        for device in devices { report.add(device) }
        return report
    }
}

extension TailscaleImportReport {
    /// Adds one device's part of a plan.
    mutating func add(_ device: TailscaleDevicePlan) {
        hosts.append(device.result)
        rotations += device.rotations
        keyProblems += device.keyProblems
        entriesTrusted += device.entriesTrusted
    }
}
