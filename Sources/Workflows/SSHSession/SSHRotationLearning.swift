// After ssh ends: each hop's rotation file is handed to the store (SSHHostKeyRotation), and
// what was learned comes back, one event per change, for the executable to say
// (SSHRotationReport). A failure here never changes the session's outcome: the store keeps
// what it had, and the event says why.
public import HostStore
public import KeyFormats
public import Sessions

/// One thing the rotation files of a session taught (or failed to teach) the store.
public enum SSHRotationEvent: Sendable {
    /// What one hop learned (its outcome may be `.unchanged`, which says nothing).
    case learned(SSHHostKeyRotation.Learned)
    /// ssh asked the target to prove `keysAsked` announced keys and learned none: the
    /// server refused the proof (`refused`), or ended the session at the request (ssh 255).
    case unproven(lookup: HostLookupName, keysAsked: Int, refused: Bool)
    /// Storing the hop's rotation failed (`reason`); the stored keys are unchanged.
    case notStored(alias: String, reason: String)
}

public enum SSHRotationLearning {
    /// `database`: the workspace's database for writing, asked only when there is something
    /// to take. `proof`: what ssh's log said about the target's proof of announced keys (nil
    /// when it was not read); `sshStatus`: ssh's exit status.
    public static func learn(plan: SSHPlan, database: () throws -> HostDatabase, files: SessionFolder, paths: SSHSessionConfig.Paths,
                             proof: SSHHostKeyProofLog? = nil, sshStatus: Int32 = 0) -> [SSHRotationEvent] {
        var events: [SSHRotationEvent] = []
        for hop in plan.hops {
            guard let file = paths.rotationFiles[hop.alias] else { continue }
            guard let bytes = files.read(file) else { continue }
            do {
                let learned = try SSHHostKeyRotation.learn(database: database, hop: hop,
                                                           fileText: String(decoding: bytes, as: UTF8.self),
                                                           firstUse: paths.firstUseHops.contains(hop.alias))
                if hop.alias == plan.target.alias, let proof,
                   let unproven = unproven(proof, learned: learned, sshStatus: sshStatus, lookup: HostLookupName(host: hop.host.hostname, port: hop.host.port)) {
                    events.append(unproven)
                }
                guard let learned else { continue }
                events.append(.learned(learned))
            } catch {
                events.append(.notStored(alias: hop.alias, reason: String(describing: error)))
            }
        }
        return events
    }

    /// ssh asked the server to prove keys it announced and learned none of them: the server
    /// could not prove them. It either ended the session at the request (sshd does when it
    /// cannot sign with an announced key: ssh then ends with 255, saying only that the
    /// connection was closed) or refused the proof (ssh said so). A session that ended
    /// normally before the answer came says nothing (nil): the next login asks again.
    static func unproven(_ proof: SSHHostKeyProofLog, learned: SSHHostKeyRotation.Learned?, sshStatus: Int32, lookup: HostLookupName) -> SSHRotationEvent? {
        // ssh's file unchanged (or no file to learn from): nothing was proven.
        guard proof.keysAsked > 0, learned == nil || learned?.outcome == .unchanged else { return nil }
        guard proof.refused || sshStatus == 255 else { return nil }
        return .unproven(lookup: lookup, keysAsked: proof.keysAsked, refused: proof.refused)
    }
}
