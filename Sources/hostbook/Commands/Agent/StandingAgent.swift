// The standing agent's state and the policy it hands the Agent library (`hostbook agent
// run`). The executable composes the parts: the Agent library speaks the protocol,
// HostStore answers "which saved hosts trust this host key" and keeps the log, the vault
// holds the private keys.
//
// * Keys: every saved key is listed; its private half is read from the vault when it
//   first signs and kept in secure memory until the agent stops, is locked, or finds the
//   vault locked (`wipe`).
// * Who gets which keys: an unbound connection (ssh-add, ssh-keygen -Y sign) sees every
//   key. A connection bound to a server's host key (or host certificate) sees only the
//   keys of the saved hosts that trust it; a server hostbook does not know gets every
//   key, as ssh-agent gives. A forwarded connection signs only when every host it was
//   forwarded to allows it (`hostbook edit NAME --allow-agent-forwarding`).
// * Lock / unlock: `ssh-add -x` / `-X`, not through a forwarded agent (AgentConversation);
//   AgentLock keeps only a salted hash of the passphrase and delays failed unlocks. A
//   locked agent lists nothing and signs nothing.
// * Every signature made or refused is handed to the log's writer (AgentLogWriter), which
//   writes it on its own thread and connection: signing never waits for the database, and
//   no log write happens under this agent's lock.
import Agent
import HostStore
import KeyFormats
import SecureMemory
import Vault

final class StandingAgent: @unchecked Sendable {
    private let mutex = Mutex()
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
        AgentPolicy(identities: { [self] in identities(for: $0) },
                    maySign: { [self] in maySign($0, $1) },
                    outcome: { [self] in record($0, $1, signed: $2) },
                    lock: { [self] in lock($0) },
                    unlock: { [self] in unlock($0) })
    }

    /// Forgets every private key read from the vault (secure memory is wiped on release).
    func wipe() {
        mutex.locked { keys.removeAll() }
    }

    // MARK: The policy

    private func identities(for state: AgentConnectionState) -> [AgentIdentity] {
        mutex.locked {
            guard !agentLock.isLocked, let stored = try? KeyStore(database: database).list() else { return [] }
            var offered = stored
            if let destination = state.destinationHostKey,
               let names = try? KnownHostsStore(database: database).hostNames(trusting: destination), !names.isEmpty {
                let keyNames = Set(names.compactMap { try? database.host(named: $0)?.key?.lowercased() })
                // Hosts with no key of their own: every key, as for an unknown server.
                if !keyNames.isEmpty { offered = stored.filter { keyNames.contains($0.name.lowercased()) } }
            }
            return offered.compactMap { key in
                guard let publicKey = try? PublicKey(blob: key.publicKeyBlob) else { return nil }
                return AgentIdentity(publicKey: publicKey, comment: key.name) { [self] data, hash in
                    try privateKey(key).sign(data, rsaHash: hash)
                }
            }
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

    private func maySign(_ state: AgentConnectionState, _ identity: AgentIdentity) -> Bool {
        mutex.locked {
            guard !agentLock.isLocked else { return false }
            let hops = state.bindings.filter(\.isForwarding)
            guard !hops.isEmpty else { return true }
            for hop in hops {
                guard let names = try? KnownHostsStore(database: database).hostNames(trusting: hop.hostKey), !names.isEmpty,
                      names.allSatisfy({ (try? database.host(named: $0))?.allowAgentForwarding == true }) else { return false }
            }
            return true
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
