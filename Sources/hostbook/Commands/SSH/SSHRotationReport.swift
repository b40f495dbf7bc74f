// After ssh ends: each hop's rotation file is handed to the store (SSHHostKeyRotation), and
// what was learned is said on stderr, one line per change. A failure here never changes
// the session's outcome: the store keeps what it had, and the line says why.
import HostStore
import KeyFormats
import Sessions

enum SSHRotationReport {
    static func learn(plan: SSHPlan, databasePath: String, files: SessionFolder, paths: SSHSessionConfig.Paths) {
        for hop in plan.hops {
            guard let file = paths.rotationFiles[hop.alias] else { continue }
            guard let bytes = files.read(file) else { continue }
            do {
                guard let learned = try SSHHostKeyRotation.learn(databasePath: databasePath, hop: hop,
                                                                 fileText: String(decoding: bytes, as: UTF8.self),
                                                                 firstUse: paths.firstUseHops.contains(hop.alias)) else { continue }
                say(learned)
            } catch {
                Hostbook.report(message: "could not store the host-key rotation of '\(hop.alias.escapedForTerminal)': \(String(describing: error).escapedForTerminal); the stored keys are unchanged",
                                hint: nil)
            }
        }
    }

    static func say(_ learned: SSHHostKeyRotation.Learned) {
        let name = KnownHostsAccess.describe(learned.lookup)
        switch learned.outcome {
        case .unchanged:
            return
        case .learned(let added, let retired):
            for key in added {
                Hostbook.report(message: "\(name) proved it holds the \(KnownHostsAccess.describe(key)): now trusted (host-key rotation)", hint: nil)
            }
            for row in retired {
                Hostbook.report(message: "\(name) no longer offers the \(KnownHostsAccess.describeStored(row)) key: retired (host-key rotation)", hint: nil)
            }
        case .notLearned(let why):
            let reason: String
            switch why {
            case .trustedUnderAnotherName(let fingerprint):
                reason = "the key \(fingerprint) is also trusted under another name, so nothing was changed (as OpenSSH does)"
            case .changedMeanwhile:
                reason = "its stored keys changed while ssh ran, so nothing was changed"
            case .nothingLeft:
                reason = "ssh kept no key for it, so nothing was changed"
            }
            Hostbook.report(message: "\(name) announced other host keys, but \(reason)",
                            hint: "Check them with 'hostbook known-hosts scan \(learned.alias.escapedForTerminal)'.")
        }
    }
}
