// After ssh ends: what each hop's rotation file taught the store (Workflows'
// SSHRotationLearning) is said on stderr, one line per change. A failure there never changes
// the session's outcome: the store keeps what it had, and the line says why.
import HostStore
import KeyFormats
import Sessions
import Workflows

enum SSHRotationReport {
    static func say(_ events: [SSHRotationEvent]) {
        for event in events {
            switch event {
            case .learned(let learned):
                say(learned)
            case .unproven(let lookup, let keysAsked, let refused):
                let keys = keysAsked == 1 ? "a host key" : "\(keysAsked) host keys"
                let how = refused ? "refused to prove it" : "ended the session when ssh asked for the proof (as it does for OpenSSH)"
                Hostbook.report(message: "\(KnownHostsAccess.describe(lookup)) announced \(keys) it cannot prove and \(how); nothing was learned and the stored keys are unchanged",
                                hint: "Its administrator should check sshd's HostKey lines (and HostKeyAgent): every key the server announces must be one it can sign with.")
            case .notStored(let alias, let reason):
                Hostbook.report(message: "could not store the host-key rotation of '\(alias.escapedForTerminal)': \(reason.escapedForTerminal); the stored keys are unchanged",
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
