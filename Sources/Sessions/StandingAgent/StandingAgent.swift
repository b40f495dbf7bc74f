// The standing agent's state and the policy it hands the Agent library (`hostbook agent
// run`). The parts: the Agent library speaks the protocol, AgentAccessPolicy decides which
// keys a connection may list and sign with (the same decision as the session agent's, with
// the standing rules: AgentAccessRules.standing), HostStore keeps the log, and the
// executable reads the private keys from the vault (`readPrivateKey`). A client's program is
// the one its connection's pidfd verifies (ProcessIdentity), as its approvals take it.
//
// * Keys: every saved key; a vault key's private half is read from the vault when it first
//   signs and kept in secure memory until the agent stops, is locked, or finds the vault
//   locked (`wipe`, which also has each provider drop what it holds: a token's PINs). A key
//   that lives elsewhere (another agent, a token: KeyLocation) signs through its location's provider (`signers`, KeySigners), under
//   the same policy, approvals and log; a provider's error refuses the signature and is the
//   log's reason (worded by `explain`).
// * `drop-keys@hostbook.io` (AgentDropKeys, sent by `hostbook vault lock`): the keys and
//   grants are dropped at once, the agent stays unlocked.
// * Lock / unlock: `ssh-add -x` / `-X`, not through a forwarded agent (AgentConversation);
//   AgentLock keeps only a salted hash of the passphrase and delays failed unlocks. A
//   locked agent lists nothing and signs nothing (AgentAccessPolicy).
// * A key whose private half cannot be read (the vault is locked) is refused, and the log
//   says why (AgentKeyUnavailable's reason, with its fix).
// * A key whose vault item is a handle (a security key's: KeyLocation) is read like a vault
//   key and signs through its location's VaultHandleSigner (`signers`), whose error refuses
//   the signature with its reason in the log.
// * `key-status@hostbook.io` (AgentKeyStatus) tells whether a listed key can sign, reading
//   its private half if it is not held yet (the signature that follows then finds it held),
//   and if not, why: `hostbook known-hosts lookup` asks, so plain ssh can say so.
// * Every signature made or refused is handed to the log's writer (AgentLogWriter), which
//   writes it on its own thread and connection: signing never waits for the database, and
//   no log write happens under this agent's lock.
public import Agent
public import HostStore
public import KeyFormats
import SecureMemory
import System

public final class StandingAgent: @unchecked Sendable {
    private let mutex = Lock()
    private let database: HostDatabase
    private let log: AgentLogWriter
    private let readPrivateKey: @Sendable (StoredKey) throws -> PrivateKey
    /// The signers of the keys that do not live in the vault, and of those whose vault item
    /// is a handle.
    private let signers: KeySigners
    /// How a signer's or the vault's error is told in the log and to key-status.
    private let explain: @Sendable (any Error) -> AgentKeyUnavailable
    /// Private keys read so far, by SHA-256 fingerprint.
    private var keys: [String: PrivateKey] = [:]
    /// The saved keys listed so far, by fingerprint (under `listedMutex`): what a
    /// key-status request names.
    private var listed: [String: StoredKey] = [:]
    private let listedMutex = Lock()
    /// Why reading a key's private half last failed, by fingerprint: the reason the log
    /// gives the refusal that follows (taken by `record`).
    private var readFailures: [String: String] = [:]
    /// The keys whose private half is being read from the vault now (under `mutex`; the
    /// read itself is not).
    private var reading: Set<String> = []
    /// How many times `wipe` has run.
    private var wipes = 0
    private let agentLock = AgentLock()
    /// Confirm keys' prompts and grants (cleared when the agent is locked).
    public let approvals: AgentApprovals

    /// `readPrivateKey`: a saved key's private half (from the vault), called once per key
    /// until `wipe`; its error refuses the signature (an AgentKeyUnavailable's reason is
    /// what the log says).
    /// `approver`: who answers for a confirm key (nil: such a key is refused, and the
    /// requester's terminal is told so). `wording`: the executable's words for what the
    /// requester is told and for the log's process chain (nil: nothing is told, no chain logged).
    /// `signers`: the providers of the locations other than the vault (a key whose location
    /// has none is read through `readPrivateKey`), and the handle signers of the locations
    /// whose handle the vault holds (read through `readPrivateKey`; a handle signer's error
    /// refuses the signature, and the log says why). `explain`: an error's words for the log.
    public init(database: HostDatabase, log: AgentLogWriter,
                readPrivateKey: @escaping @Sendable (StoredKey) throws -> PrivateKey,
                signers: KeySigners = KeySigners(),
                explain: @escaping @Sendable (any Error) -> AgentKeyUnavailable = AgentKeyUnavailable.described,
                approver: (any AgentApprover)? = nil,
                wording: (any AgentWording)? = nil) {
        self.approvals = AgentApprovals(approver: approver, wording: wording, tellsRequester: true)
        self.database = database
        self.log = log
        self.readPrivateKey = readPrivateKey
        self.signers = signers
        self.explain = explain
    }

    public var policy: AgentPolicy {
        let database = self.database
        let access = AgentAccessPolicy(rules: .standing, lock: agentLock, approvals: approvals, database: { database })
        var policy = access.agentPolicy(identity: { [self] key in identity(key) },
                                        outcome: { [self] in record($0, $1, $2) },
                                        certificateNotValid: { [self] in recordNotValid($0, $1, $2) },
                                        lock: { [self] in lock($0) },
                                        unlock: { [self] in unlock($0) })
        policy.keyStatus = { [self] _, identity in status(identity) }
        policy.dropKeys = { [self] in dropKeys() }
        return policy
    }

    /// Forgets every private key read from the vault (secure memory is wiped on release),
    /// and any read in progress keeps none; the providers forget what they hold (a token's
    /// PINs: KeySignerProvider.drop).
    public func wipe() {
        mutex.locked {
            keys.removeAll()
            wipes += 1
        }
        signers.drop()
    }

    // MARK: The policy's parts

    /// A saved key the policy permits, signing through its location's provider, else with
    /// its private half from the vault (through its location's handle signer, if any).
    private func identity(_ key: StoredKey) -> AgentIdentity? {
        guard let publicKey = try? PublicKey(blob: key.publicKeyBlob) else { return nil }
        listedMutex.locked { listed[key.fingerprint] = key }
        if let provider = signers.provider(for: key) {
            let signer = provider.signer(for: key)
            return AgentIdentity(publicKey: publicKey, comment: key.name) { [self] data, hash in
                do { return try signer.sign(data, rsaHash: hash) } catch {
                    let reason = explain(error).reason
                    mutex.locked { readFailures[key.fingerprint] = reason }
                    throw error
                }
            }
        }
        let handleSigner = signers.handleSigner(for: key)
        return AgentIdentity(publicKey: publicKey, comment: key.name) { [self] data, hash in
            let held = try privateKey(key)
            guard let handleSigner else { return try held.sign(data, rsaHash: hash) }
            do {
                return try handleSigner.sign(data, with: held, for: key, rsaHash: hash)
            } catch {
                mutex.locked { readFailures[key.fingerprint] = AgentKeyUnavailable(error).reason }
                throw error
            }
        }
    }

    /// `noting`: a failure's reason is kept for the refusal the log records next (a
    /// signature's read); a key-status request's read keeps none. The vault is read without
    /// `mutex` held (a slow vault stalls no other key's signature), at most one read per key
    /// at a time: another request for that key waits for the read in progress, then takes
    /// its key (or, when it failed, reads itself).
    private func privateKey(_ stored: StoredKey, noting: Bool = true) throws -> PrivateKey {
        let fingerprint = stored.fingerprint
        let turn: ReadTurn = mutex.locked {
            while true {
                if let held = keys[fingerprint] { return .held(held) }
                if reading.insert(fingerprint).inserted { return .read(wipes: wipes) }
                mutex.wait()
            }
        }
        let wipesBefore: Int
        switch turn {
        case .held(let held): return held
        case .read(let wipes): wipesBefore = wipes
        }
        let result = Result { try readPrivateKey(stored) }
        mutex.locked {
            reading.remove(fingerprint)
            switch result {
            case .success(let key):
                // A key read across a wipe (the agent was locked meanwhile) is not kept.
                if wipes == wipesBefore { keys[fingerprint] = key }
                readFailures[fingerprint] = nil
            case .failure(let error):
                if noting { readFailures[fingerprint] = explain(error).reason }
            }
            mutex.broadcast()
        }
        return try result.get()
    }

    /// What `privateKey` does for a key: take the one held, or read it (no other read of
    /// that key runs); `wipes` as the read began.
    private enum ReadTurn {
        case held(PrivateKey)
        case read(wipes: Int)
    }

    /// Whether a listed key can sign: its private half is held, or is read now (as the
    /// signature ssh asks for next would read it, which then finds it held).
    private func status(_ identity: AgentIdentity) -> AgentKeyStatus? {
        guard let stored = listedMutex.locked({ listed[identity.publicKey.sha256Fingerprint] }) else { return nil }
        if let provider = signers.provider(for: stored) {
            guard let error = provider.unavailable(stored) else { return .ready }
            let unavailable = explain(error)
            return .unavailable(message: unavailable.message, hint: unavailable.hint ?? "")
        }
        do {
            _ = try privateKey(stored, noting: false)
            return .ready
        } catch {
            let unavailable = explain(error)
            return .unavailable(message: unavailable.message, hint: unavailable.hint ?? "")
        }
    }

    private func record(_ state: AgentConnectionState, _ key: PublicKey, _ outcome: AgentSignOutcome) {
        let hostKey = state.destinationHostKey ?? state.bindings.last?.hostKey
        // The client is still waiting for its answer, so its chain is still there to read.
        let chain = ProcessChain.chain(from: state.peer.pid, ancestors: ApprovalRequest.ancestorsShown)
        let fingerprint = key.sha256Fingerprint
        let reason = mutex.locked { readFailures.removeValue(forKey: fingerprint) }
        var use = AgentUse(signed: outcome.signed, keyFingerprint: fingerprint, hostKeyBlob: hostKey?.blob,
                           hostKeyFingerprint: hostKey?.plainKey.sha256Fingerprint, forwarded: state.isForwarded,
                           clientPID: Int(state.peer.pid), clientExecutable: state.peer.process?.verifiedExecutable,
                           reason: outcome.signed ? nil : reason)
        use.decision = outcome.how
        use.processChain = approvals.wording?.processChain(chain)
        use.forwardingHostKeyBlobs = state.bindings.filter(\.isForwarding).map(\.hostKey.blob)
        use.certificate = outcome.certificate.map(AgentCertificateOffer.logName)
        log.record(use)
    }

    /// A key's certificate left out of a listing for its validity window: a refusal in the
    /// log, naming the certificate (repeats coalesce there, as refusals do).
    private func recordNotValid(_ state: AgentConnectionState, _ key: StoredKey, _ certificate: Certificate) {
        let hostKey = state.destinationHostKey ?? state.bindings.last?.hostKey
        var use = AgentUse(signed: false, keyFingerprint: key.fingerprint, hostKeyBlob: hostKey?.blob,
                           hostKeyFingerprint: hostKey?.plainKey.sha256Fingerprint, forwarded: state.isForwarded,
                           clientPID: Int(state.peer.pid), clientExecutable: state.peer.process?.verifiedExecutable,
                           reason: AgentCertificateOffer.notValidReason(certificate, now: AgentCertificateOffer.now()))
        use.decision = AgentCertificateOffer.notValidDecision
        use.certificate = AgentCertificateOffer.logName(certificate)
        log.record(use)
    }

    private func lock(_ passphrase: SecretBytes) -> Bool {
        guard agentLock.lock(passphrase) else { return false }
        approvals.clear()
        wipe()
        return true
    }

    private func unlock(_ passphrase: SecretBytes) -> Bool { agentLock.unlock(passphrase) }

    /// `drop-keys@hostbook.io` (`hostbook vault lock`): what locking does to the keys and
    /// grants, without locking the agent.
    public func dropKeys() {
        approvals.clear()
        wipe()
    }
}

/// Why a key's private half cannot be had, as the agent log records it: what happened and
/// what fixes it ("the default keyring ... is locked; Unlock it ...").
public struct AgentKeyUnavailable: Error, Sendable {
    /// What is wrong, and what fixes it (nil when nothing is known to).
    public let message: String
    public let hint: String?
    /// The two as one sentence, as the log records them: "MESSAGE; HINT".
    public var reason: String { message + (hint.map { "; " + $0 } ?? "") }

    public init(message: String, hint: String?) {
        self.message = message
        self.hint = hint
    }

    /// `error` as it is, or described when it is not an AgentKeyUnavailable.
    init(_ error: any Error) {
        self = error as? AgentKeyUnavailable ?? AgentKeyUnavailable(message: "cannot read the private key: \(error)", hint: nil)
    }

    /// `init(_:)` as a function (StandingAgent's default `explain`).
    public static func described(_ error: any Error) -> AgentKeyUnavailable { AgentKeyUnavailable(error) }
}
