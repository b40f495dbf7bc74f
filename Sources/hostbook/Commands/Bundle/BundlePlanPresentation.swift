// What `bundle import`, `subscribe` and `update` print about a bundle: what it adds,
// updates and removes, what it leaves alone (clashes with hosts it did not bring, host keys
// that disagree with trusted ones, key names this database lacks), as text and as JSON
// (docs/command-line.md, "bundle"). Every name and line from the bundle is escaped when
// printed (TerminalText).
import CommandLineKit
import HostStore
import ImportFormats
import Sessions

enum BundlePlanPresentation {
    /// The JSON fields of an intake (`applied`: false for a dry run).
    static func fields(_ intake: BundleIntake, applied: Bool) -> [(String, JSONValue)] {
        let plan = intake.plan
        return [
            ("bundle", .string(plan.bundle)),
            ("serial", .int(Int(clamping: plan.serial))),
            ("previous_serial", plan.previousSerial.map { .int(Int(clamping: $0)) } ?? .null),
            ("signer", .string(intake.signer.sha256Fingerprint)),
            ("applied", .bool(applied)),
            ("changes_nothing", .bool(plan.changesNothing)),
            ("hosts_added", .strings(plan.hostsToAdd.map(\.name))),
            ("hosts_updated", .strings(plan.hostsToUpdate.map(\.name))),
            ("hosts_removed", .strings(plan.hostsToRemove)),
            ("snippets_added", .strings(plan.snippetsToAdd.map(\.name))),
            ("snippets_updated", .strings(plan.snippetsToUpdate.map(\.name))),
            ("snippets_removed", .strings(plan.snippetsToRemove)),
            ("host_keys_trusted", .strings(plan.hostKeysToTrust)),
            ("host_keys_revoked", .strings(plan.hostKeysToRevoke)),
            ("host_keys_removed", .strings(plan.hostKeysToRemove)),
            ("passwords_removed", .strings(plan.removedPasswords.map(\.host))),
            ("clashes", .array(plan.clashes.map {
                .object([("kind", .string($0.kind == .host ? "host" : "snippet")), ("name", .string($0.name)), ("owner", .string($0.owner))])
            })),
            ("changed_host_keys", .array(plan.changedHostKeys.map {
                .object([("host", .string($0.host)), ("line", .string($0.line)), ("offered", .string($0.offered)), ("trusted", .strings($0.trusted))])
            })),
            ("refused_hosts", .array(plan.refusedHosts.map { .object([("name", .string($0.what)), ("reason", .string($0.reason))]) })),
            ("refused_host_keys", .array(plan.refusedHostKeys.map { .object([("line", .string($0.what)), ("reason", .string($0.reason))]) })),
            ("missing_keys", .array(plan.missingKeys.map { .object([("host", .string($0.host)), ("key", .string($0.key))]) })),
            ("overrides_kept", .array(plan.overridesKept.map {
                .object([("host", .string($0.host)), ("field", .string($0.field)), ("bundle", .optional($0.bundleValue)), ("local", .optional($0.localValue))])
            })),
            ("certificates_attached", .array(plan.certificatesToAttach.map {
                .object([("key", .string($0.key)), ("serial", .int(Int(clamping: $0.serial))), ("key_id", .string($0.keyID)),
                         ("authority", .string($0.authority)), ("valid_before", .int(Int(clamping: $0.validBefore))), ("replaces", .bool($0.replaces))])
            })),
            ("certificates_not_attached", .array(plan.certificatesNotAttached.map {
                .object([("key", .string($0.key)), ("serial", .int(Int(clamping: $0.serial))), ("reason", .string(reasonCode($0.reason)))])
            })),
            ("certificates_ignored", .int(plan.certificatesIgnored)),
            ("revocation_list", .bool(plan.hasRevocationList)),
            ("revocation_list_changed", .bool(plan.revocationListChanged)),
        ]
    }

    /// The text report. `dryRun`: said to have written nothing.
    static func print(_ intake: BundleIntake, dryRun: Bool, to inv: Invocation) {
        let plan = intake.plan
        let was: TerminalText = plan.previousSerial.map { "was \($0)" } ?? "new"
        inv.print("Bundle '\(plan.bundle)' serial \(plan.serial) (\(was)), signed by \(intake.signer.sha256Fingerprint)\(raw: dryRun ? " — dry run, nothing written" : ""):")
        if plan.changesNothing {
            inv.print("  unchanged: nothing to apply")
        }
        list(inv, dryRun ? "hosts to add" : "hosts added", plan.hostsToAdd.map(\.name))
        list(inv, dryRun ? "hosts to update" : "hosts updated", plan.hostsToUpdate.map(\.name))
        list(inv, dryRun ? "hosts to remove" : "hosts removed", plan.hostsToRemove)
        list(inv, dryRun ? "snippets to add" : "snippets added", plan.snippetsToAdd.map(\.name))
        list(inv, dryRun ? "snippets to update" : "snippets updated", plan.snippetsToUpdate.map(\.name))
        list(inv, dryRun ? "snippets to remove" : "snippets removed", plan.snippetsToRemove)
        let keys = [(plan.hostKeysToTrust.count, "trusted"), (plan.hostKeysToRevoke.count, "revoked"), (plan.hostKeysToRemove.count, "removed")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !keys.isEmpty { inv.print("  host keys: \(raw: keys.joined(separator: ", "))") }
        for clash in plan.clashes {
            let kind = clash.kind == .host ? "host" : "snippet"
            let owner: TerminalText = clash.owner == "manual" ? "was made by you" : "came from \(clash.owner)"
            inv.print("  not changed: \(raw: kind) '\(clash.name)' \(owner)")
        }
        for refused in plan.refusedHosts {
            inv.print("  not applied: host '\(refused.what)': \(refused.reason)")
        }
        for refused in plan.refusedHostKeys {
            inv.print("  not applied: host-key line '\(refused.what)': \(refused.reason)")
        }
        for changed in plan.changedHostKeys {
            inv.print("  not changed: the bundle's host key for \(changed.host) (\(changed.offered)) differs from the one you trust (\(changed.trusted.joined(separator: ", ")))")
            inv.print("    review it with 'hostbook known-hosts list \(changed.host)'; it is replaced only by 'hostbook known-hosts approve HOST --key \"TYPE BASE64\" --replace'")
        }
        for removed in plan.removedPasswords where removed.addressChanged || removed.keyChanged {
            let why: TerminalText = removed.addressChanged ? "the bundle changed its address" : "the bundle changed its host key"
            inv.print("  password of '\(removed.host)' \(raw: dryRun ? "to be removed" : "removed"): \(why); set it again with hostbook edit \(removed.host) --password-stdin")
        }
        for kept in plan.overridesKept {
            inv.print("  kept your \(kept.field) of '\(kept.host)' (\(kept.localValue ?? "-")); the bundle's is now \(kept.bundleValue ?? "-") ('hostbook edit \(kept.host) --reset \(kept.field)' takes it)")
        }
        for missing in plan.missingKeys {
            inv.print("  host '\(missing.host)' expects key '\(missing.key)', which you do not have: saved without a key")
        }
        for attached in plan.certificatesToAttach {
            let verb = dryRun ? "to be attached" : "attached"
            inv.print("  certificate \(raw: verb) to key '\(attached.key)': serial \(attached.serial), key id \"\(attached.keyID)\"\(raw: attached.replaces ? " (a renewal)" : "")")
        }
        for refused in plan.certificatesNotAttached {
            inv.print("  certificate serial \(refused.serial) for key '\(refused.key)' not attached: \(raw: reasonWords(refused.reason, key: refused.key))")
        }
        if plan.certificatesIgnored > 0 {
            inv.print("  \(raw: plan.certificatesIgnored == 1 ? "1 certificate is" : "\(plan.certificatesIgnored) certificates are") for keys you do not have: ignored")
        }
        if plan.revocationListChanged {
            let what = plan.hasRevocationList ? (dryRun ? "to be enforced" : "enforced") : (dryRun ? "to be dropped" : "dropped")
            inv.print("  revocation list \(raw: what)\(raw: plan.hasRevocationList ? ": host keys and certificates it revokes are refused" : "")")
        }
    }

    /// The JSON word of a certificate that was not attached (docs/json.md).
    static func reasonCode(_ reason: BundlePlan.CertificateNotAttached.Reason) -> String {
        switch reason {
        case .notTheBundlesAuthority: "not_the_bundles_authority"
        case .expired: "expired"
        case .badSignature: "bad_signature"
        case .otherAuthorityAttached: "other_authority_attached"
        }
    }

    private static func reasonWords(_ reason: BundlePlan.CertificateNotAttached.Reason, key: String) -> String {
        switch reason {
        case .notTheBundlesAuthority: "no certificate authority of the bundle signed it"
        case .expired: "it has expired"
        case .badSignature: "its CA signature does not verify"
        case .otherAuthorityAttached: "the key has a certificate of another authority, which stays ('hostbook keys cert remove \(ShellQuote.quote(key))' lets the bundle's in)"
        }
    }

    private static func list(_ inv: Invocation, _ label: String, _ names: [String]) {
        guard !names.isEmpty else { return }
        inv.print("  \(raw: label): \(names.joined(separator: ", "))")
    }
}

extension BundleRefusal: UserFacingError {
    var exitCode: ExitCode { .rejected }
}
