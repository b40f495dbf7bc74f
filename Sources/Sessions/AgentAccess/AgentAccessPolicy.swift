// Where the agent decides which keys a connection may list and sign with: one function,
// `permitted`, for both agents (the rules that tell them apart are AgentAccessRules) and
// for both questions, as ssh-agent.c asks identity_permitted() when it lists and when it
// signs. The Agent library has already enforced the protocol's own rules before it asks:
// a bound connection signs only user authentication for its session and host key, and a
// connection whose session-bind failed gets nothing.
//
// Signing with a key saved with `--confirm` is "permitted, but needs approval": the
// decision then goes to the injected AgentApprovals (a grant, else its approver), with the
// request as the prompt shows it (ApprovalRequest: key, destination, process chain,
// forwarding hosts). Asking happens outside this policy's mutex, so a prompt left open
// holds up only the connection that waits for it.
public import Agent
public import HostStore
public import KeyFormats
public import SecureMemory
import System

public final class AgentAccessPolicy: @unchecked Sendable {
    public enum Use: Sendable { case listing, signing }

    public let rules: AgentAccessRules
    /// The database, opened when asked (nil when there is none): the per-session agent
    /// opens it for each decision, so a host key approved a moment earlier by
    /// KnownHostsCommand counts; the standing agent keeps one open.
    private let database: () throws -> HostDatabase?
    /// The standing agent's lock (`ssh-add -x`); nil for an agent that cannot be locked.
    private let lock: AgentLock?
    /// One decision at a time: a HostDatabase is one SQLite connection.
    private let mutex = Lock()
    /// Who answers for a confirm key (grants included); without an approver such a key is refused.
    public let approvals: AgentApprovals

    public init(rules: AgentAccessRules, lock: AgentLock? = nil, approvals: AgentApprovals = AgentApprovals(approver: nil),
                database: @escaping () throws -> HostDatabase?) {
        self.rules = rules
        self.lock = lock
        self.approvals = approvals
        self.database = database
    }

    /// Whether a signature with a key may be made.
    public enum SigningVerdict: Sendable, Equatable {
        case refused
        case permitted(StoredKey)
        /// Permitted once the user approves (a key saved with `--confirm`).
        case needsApproval(StoredKey)
    }

    /// The keys the agent holds, before any connection's rules, in the order they are offered.
    public func heldKeys() -> [StoredKey] {
        switch rules.keys {
        case .sessionHops(let hops):
            var seen: Set<String> = []
            return hops.map(\.key).filter { seen.insert($0.fingerprint).inserted }
        case .everySavedKey:
            return mutex.locked { (try? database().map { try KeyStore(database: $0).list() }) ?? [] }
        }
    }

    // The rules, in the order they are applied (a rule that refuses ends the decision):
    // 1. A connection whose session-bind failed: nothing ("previous session bind failed
    //    on socket" in identity_permitted).
    // 2. A locked agent: nothing.
    // 3. Signing on a forwarded connection (any binding with is_forwarding): refused, or
    //    allowed only when every forwarding hop's host key is trusted by saved hosts that
    //    all allow agent forwarding (`rules.forwarded`). Listing goes on to 4, as
    //    identity_permitted lists keys a far side could use beyond the hop.
    // 4. No binding at all: every key, or every key listed and none signed with
    //    (`rules.unbound`). A forwarded connection with no destination of its own yet (the
    //    far side's ssh-add) is not unbound: it passed 3 and gets every key.
    // 5. Bound to a destination host key (the last binding that is not a forwarding hop;
    //    a host certificate as the server presented it, decided as ssh decides it):
    //    - session hops: a key only when that host key is trusted for a hop owning the key;
    //    - every saved key: the keys of the saved hosts that trust that host key; every
    //      key when no saved host trusts it (an unknown server, as ssh-agent gives) or
    //      when none of those hosts has a key of its own.
    // A database that cannot be read refuses (nothing listed, nothing signed).

    /// Which of `keys` this connection may use for `use`, in their order.
    public func permitted(_ keys: [StoredKey], for use: Use, on connection: AgentConnectionState) -> [StoredKey] {
        if connection.bindFailed { return [] }
        if lock?.isLocked == true { return [] }
        return mutex.locked {
            if use == .signing, connection.isForwarded {
                switch rules.forwarded {
                case .refused: return []
                case .throughHostsAllowingForwarding:
                    for hop in connection.bindings where hop.isForwarding {
                        guard (try? forwardingAllowed(through: hop.hostKey)) == true else { return [] }
                    }
                }
            }
            if connection.bindings.isEmpty {
                return use == .signing && rules.unbound == .listedNeverSigned ? [] : keys
            }
            guard let destination = connection.destinationHostKey else { return keys }
            return (try? boundKeys(keys, destination: destination)) ?? []
        }
    }

    /// `permitted` for one key, by its public half (what a sign request names).
    public func permits(_ key: PublicKey, for use: Use, on connection: AgentConnectionState) -> Bool {
        !permitted(heldKeys().filter { $0.publicKeyBlob == key.blob }, for: use, on: connection).isEmpty
    }

    /// `permitted` for signing with one key, and whether the user must approve it.
    public func signingVerdict(_ key: PublicKey, on connection: AgentConnectionState) -> SigningVerdict {
        guard let stored = permitted(heldKeys().filter { $0.publicKeyBlob == key.blob }, for: .signing, on: connection).first else { return .refused }
        return stored.confirm ? .needsApproval(stored) : .permitted(stored)
    }

    /// The whole decision for one signature: the verdict, then (for a confirm key) a grant
    /// or the approver's answer. `how` is the log's word for it (nil for a refusal by the rules).
    public func decideSigning(_ key: PublicKey, on connection: AgentConnectionState) -> AgentSignDecision {
        switch signingVerdict(key, on: connection) {
        case .refused: return .refused(nil)
        case .permitted: return .allowed(AgentApprovals.Decision.noConfirm.rawValue)
        case .needsApproval(let stored):
            let decision = approvals.decide(approvalRequest(stored, on: connection))
            return AgentSignDecision(allowed: decision.allows, how: decision.rawValue)
        }
    }

    /// What the prompt shows for a signature with `key` on `connection`.
    public func approvalRequest(_ key: StoredKey, on connection: AgentConnectionState) -> ApprovalRequest {
        let chain = ProcessChain.chain(from: connection.peer.pid, ancestors: ApprovalRequest.ancestorsShown)
        return mutex.locked {
            let database = try? database()
            var destination = ApprovalDestination.none
            if let hostKey = connection.destinationHostKey {
                let fingerprint = hostKey.plainKey.sha256Fingerprint
                let hosts = (try? database.map { try Self.savedDestinations(trusting: hostKey, in: $0) }) ?? nil
                destination = hosts.map { $0.isEmpty ? .unknownServer(hostKeyFingerprint: fingerprint) : .savedHosts($0, hostKeyFingerprint: fingerprint) }
                    ?? .unknownServer(hostKeyFingerprint: fingerprint)
            }
            let through = connection.bindings.filter(\.isForwarding).map { hop in
                let names = (try? database.map { try KnownHostsStore(database: $0).hostNames(trusting: hop.hostKey) }) ?? nil
                return names.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") } ?? "host key \(hop.hostKey.plainKey.sha256Fingerprint)"
            }
            return ApprovalRequest(key: key, destination: destination, chain: chain, forwardedThrough: through)
        }
    }

    private static func savedDestinations(trusting hostKey: PresentedHostKey, in database: HostDatabase) throws -> [SavedDestination] {
        try KnownHostsStore(database: database).hostNames(trusting: hostKey).compactMap { name in
            try database.host(named: name).map { SavedDestination(name: $0.name, user: $0.user, hostname: $0.hostname, port: $0.port) }
        }
    }

    /// The Agent library's policy: its listing and its signing both decided by `permitted`.
    /// `identity` gives a permitted key its signer (nil: not available, left out).
    public func agentPolicy(identity: @escaping @Sendable (StoredKey) -> AgentIdentity?,
                            outcome: (@Sendable (AgentConnectionState, PublicKey, AgentSignOutcome) -> Void)? = nil,
                            lock: (@Sendable (SecretBytes) -> Bool)? = nil,
                            unlock: (@Sendable (SecretBytes) -> Bool)? = nil) -> AgentPolicy {
        AgentPolicy(identities: { [self] state in permitted(heldKeys(), for: .listing, on: state).compactMap(identity) },
                    maySign: { [self] state, identity in decideSigning(identity.publicKey, on: state) },
                    outcome: outcome, lock: lock, unlock: unlock)
    }

    // MARK: The database's answers (called under `mutex`)

    /// Rule 5.
    private func boundKeys(_ keys: [StoredKey], destination: PresentedHostKey) throws -> [StoredKey] {
        guard let database = try database() else { return [] }
        let store = KnownHostsStore(database: database)
        switch rules.keys {
        case .sessionHops(let hops):
            // The hops whose host key this is, asked once each, as KnownHostsCommand asks
            // (SSHHostKeyLookup.decide) when ssh checks the server.
            var trusted: Set<String> = []
            for hop in hops where try store.check(HostLookupName(host: hop.host, port: hop.port), presented: destination).decision.status == .trusted {
                trusted.insert(hop.key.fingerprint)
            }
            return keys.filter { trusted.contains($0.fingerprint) }
        case .everySavedKey:
            let names = try store.hostNames(trusting: destination)
            let keyNames = Set(try names.compactMap { try database.host(named: $0)?.key?.lowercased() })
            if keyNames.isEmpty { return keys }
            return keys.filter { keyNames.contains($0.name.lowercased()) }
        }
    }

    /// Rule 3: whether the saved hosts behind a forwarding hop's host key all allow it.
    private func forwardingAllowed(through hostKey: PresentedHostKey) throws -> Bool {
        guard let database = try database() else { return false }
        let names = try KnownHostsStore(database: database).hostNames(trusting: hostKey)
        return try !names.isEmpty && names.allSatisfy { try database.host(named: $0)?.allowAgentForwarding == true }
    }
}
