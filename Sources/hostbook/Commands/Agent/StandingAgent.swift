// The standing agent's state and the policy it hands the Agent library (`hostbook agent
// run`). The executable composes the parts: the Agent library speaks the protocol,
// AgentAccessPolicy decides which keys a connection may list and sign with (the same
// decision as the session agent's, with the standing rules: AgentAccessRules.standing),
// HostStore keeps the log, the vault holds the private keys.
//
// * Keys: every saved key; its private half is read from the vault when it first signs
//   and kept in secure memory until the agent stops, is locked, or finds the vault locked
//   (`wipe`).
// * Lock / unlock: `ssh-add -x` / `-X`, not through a forwarded agent (AgentConversation);
//   AgentLock keeps only a salted hash of the passphrase and delays failed unlocks. A
//   locked agent lists nothing and signs nothing (AgentAccessPolicy).
// * Every signature made or refused is handed to the log's writer (AgentLogWriter), which
//   writes it on its own thread and connection: signing never waits for the database, and
//   no log write happens under this agent's lock.
import Agent
import AgentAccess
import HostStore
import KeyFormats
import SecureMemory
import System
import Vault

final class StandingAgent: @unchecked Sendable {
    private let mutex = Lock()
    private let database: HostDatabase
    private let vault: VaultClient
    private let log: AgentLogWriter
    /// Private keys read so far, by SHA-256 fingerprint.
    private var keys: [String: PrivateKey] = [:]
    private let agentLock = AgentLock()

    init(database: HostDatabase, log: AgentLogWriter) {
        self.database = database
        self.log = log
        self.vault = VaultClient(databaseID: database.databaseID)
    }

    var policy: AgentPolicy {
        let database = self.database
        let access = AgentAccessPolicy(rules: .standing, lock: agentLock, database: { database })
        return access.agentPolicy(identity: { [self] key in identity(key) },
                                  outcome: { [self] in record($0, $1, signed: $2) },
                                  lock: { [self] in lock($0) },
                                  unlock: { [self] in unlock($0) })
    }

    /// Forgets every private key read from the vault (secure memory is wiped on release).
    func wipe() {
        mutex.locked { keys.removeAll() }
    }

    // MARK: The policy's parts

    /// A saved key the policy permits, signing with its private half from the vault.
    private func identity(_ key: StoredKey) -> AgentIdentity? {
        guard let publicKey = try? PublicKey(blob: key.publicKeyBlob) else { return nil }
        return AgentIdentity(publicKey: publicKey, comment: key.name) { [self] data, hash in
            try privateKey(key).sign(data, rsaHash: hash)
        }
    }

    private func privateKey(_ stored: StoredKey) throws -> PrivateKey {
        try mutex.locked {
            if let held = keys[stored.fingerprint] { return held }
            let key = try VaultPrivateKey.read(stored, from: vault)
            keys[stored.fingerprint] = key
            return key
        }
    }

    private func record(_ state: AgentConnectionState, _ key: PublicKey, signed: Bool) {
        let hostKey = state.destinationHostKey ?? state.bindings.last?.hostKey
        log.record(AgentUse(signed: signed, keyFingerprint: key.sha256Fingerprint, hostKeyBlob: hostKey?.blob,
                            hostKeyFingerprint: hostKey?.plainKey.sha256Fingerprint, forwarded: state.isForwarded,
                            clientPID: Int(state.peer.pid), clientExecutable: AgentSocket.executable(of: state.peer.pid)))
    }

    private func lock(_ passphrase: SecretBytes) -> Bool {
        guard agentLock.lock(passphrase) else { return false }
        wipe()
        return true
    }

    private func unlock(_ passphrase: SecretBytes) -> Bool { agentLock.unlock(passphrase) }
}
