// After ssh ends: each hop's rotation file is handed to the store (SSHHostKeyRotation), and
// what was learned is said on stderr, one line per change. A failure here never changes
// the session's outcome: the store keeps what it had, and the line says why.
import HostStore
import KeyFormats
import Sessions

enum SSHRotationReport {
    /// `proof`: what ssh's log said about the target's proof of announced keys (nil when
    /// it was not read); `sshStatus`: ssh's exit status.
    static func learn(plan: SSHPlan, databasePath: String, files: SessionFolder, paths: SSHSessionConfig.Paths,
                      proof: SSHHostKeyProofLog? = nil, sshStatus: Int32 = 0) {
        for hop in plan.hops {
            guard let file = paths.rotationFiles[hop.alias] else { continue }
            guard let bytes = files.read(file) else { continue }
            do {
                let learned = try SSHHostKeyRotation.learn(databasePath: databasePath, hop: hop,
                                                           fileText: String(decoding: bytes, as: UTF8.self),
                                                           firstUse: paths.firstUseHops.contains(hop.alias))
                if hop.alias == plan.target.alias, let proof {
                    unproven(proof, learned: learned, sshStatus: sshStatus, lookup: HostLookupName(host: hop.host.hostname, port: hop.host.port))
                }
                guard let learned else { continue }
                say(learned)
            } catch {
                Hostbook.report(message: "could not store the host-key rotation of '\(hop.alias.escapedForTerminal)': \(String(describing: error).escapedForTerminal); the stored keys are unchanged",
                                hint: nil)
            }
        }
    }

    /// ssh asked the server to prove keys it announced and learned none of them: the server
    /// could not prove them. It either ended the session at the request (sshd does when it
    /// cannot sign with an announced key: ssh then ends with 255, saying only that the
    /// connection was closed) or refused the proof (ssh said so). A session that ended
    /// normally before the answer came says nothing: the next login asks again.
    static func unproven(_ proof: SSHHostKeyProofLog, learned: SSHHostKeyRotation.Learned?, sshStatus: Int32, lookup: HostLookupName) {
        // ssh's file unchanged (or no file to learn from): nothing was proven.
        guard proof.keysAsked > 0, learned == nil || learned?.outcome == .unchanged else { return }
        let keys = proof.keysAsked == 1 ? "a host key" : "\(proof.keysAsked) host keys"
        let how: String
        if proof.refused {
            how = "refused to prove it"
        } else if sshStatus == 255 {
            how = "ended the session when ssh asked for the proof (as it does for OpenSSH)"
        } else {
            return
        }
        Hostbook.report(message: "\(KnownHostsAccess.describe(lookup)) announced \(keys) it cannot prove and \(how); nothing was learned and the stored keys are unchanged",
                        hint: "Its administrator should check sshd's HostKey lines (and HostKeyAgent): every key the server announces must be one it can sign with.")
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
