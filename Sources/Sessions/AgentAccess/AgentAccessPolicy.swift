// Where the agent decides which keys a connection may list and sign with: one function,
// `permitted`, for both agents (the rules that tell them apart are AgentAccessRules) and
// for both questions, as ssh-agent.c asks identity_permitted() when it lists and when it
// signs. The Agent library has already enforced the protocol's own rules before it asks:
// a bound connection signs only user authentication for its session and host key, and a
// connection whose session-bind failed gets nothing.
//
// Signing is decided as refused, permitted, or "permitted, but needs approval" (a key saved
// with `--confirm`, whatever it signs: user authentication, or an SSHSIG request in the
// namespaces a restricted key keeps); a refusal by rule 6 alone is told apart, so the log
// can say `namespace`. For a key that needs approval the decision goes to the injected
// AgentApprovals (a grant, else its approver), with the request as the prompt shows it
// (ApprovalRequest: key, destination, what is signed and its digest, the verified program,
// process chain, forwarding hosts). Asking happens
// outside this policy's mutex, so a prompt left open holds up only the connection that
// waits for it. A security-key (sk-*) signature that is allowed tells the requester's
// terminal to touch the key (AgentApprovals.tellToTouch) before the authenticator is asked.
public import Agent
public import HostStore
public import KeyFormats
public import SecureMemory
import System

public final class AgentAccessPolicy: @unchecked Sendable {
    public enum Use: Sendable {
        case listing
        /// A signature over data the Agent library has told apart (user authentication,
        /// SSHSIG, or anything else).
        case signing(SignedData)

        var isSigning: Bool { if case .signing = self { true } else { false } }
    }

    public let rules: AgentAccessRules
    /// The database (nil when there is none): both agents are given one handle, opened
    /// once, and read it afresh for each request (each statement sees what was committed
    /// before it), so a host key approved a moment earlier by KnownHostsCommand counts.
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
        /// Refused by rule 6 alone: a key restricted to SSHSIG namespaces, asked to sign
        /// something else (or on a bound connection).
        case refusedOutsideNamespaces
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
    // 6. A key restricted to SSHSIG namespaces (KeyNamespaces, `keys edit --namespace`),
    //    whatever 1-5 allowed: listed only to a connection with no binding at all (a server
    //    is never offered it), and signs only an SSHSIG request in one of its namespaces on
    //    such a connection; never user authentication, never other data. ssh-agent.c keeps
    //    the same line between parse_userauth_request and parse_sshsig_request.
    // A database that cannot be read refuses (nothing listed, nothing signed).

    /// Which of `keys` this connection may use for `use`, in their order.
    public func permitted(_ keys: [StoredKey], for use: Use, on connection: AgentConnectionState) -> [StoredKey] {
        if connection.bindFailed { return [] }
        if lock?.isLocked == true { return [] }
        return mutex.locked { stages(keys, for: use, on: connection).permitted ?? [] }
    }

    /// Rules 3 to 5, then rule 6 (called under `mutex`): the keys 1 to 5 allow, and those
    /// rule 6 leaves of them (nil: the database could not be read).
    private func stages(_ keys: [StoredKey], for use: Use, on connection: AgentConnectionState)
        -> (beforeNamespaces: [StoredKey], permitted: [StoredKey]?) {
        let allowed = decided(keys, for: use, on: connection)
        return (allowed, try? restrictedToNamespaces(allowed, for: use, on: connection))
    }

    /// Rules 3 to 5 (called under `mutex`).
    private func decided(_ keys: [StoredKey], for use: Use, on connection: AgentConnectionState) -> [StoredKey] {
        if use.isSigning, connection.isForwarded {
            switch rules.forwarded {
            case .refused: return []
            case .throughHostsAllowingForwarding:
                for hop in connection.bindings where hop.isForwarding {
                    guard (try? forwardingAllowed(through: hop.hostKey)) == true else { return [] }
                }
            }
        }
        if connection.bindings.isEmpty {
            return use.isSigning && rules.unbound == .listedNeverSigned ? [] : keys
        }
        guard let destination = connection.destinationHostKey else { return keys }
        return (try? boundKeys(keys, destination: destination)) ?? []
    }

    /// `permitted` for signing `data` with one key, and whether the user must approve it
    /// (a confirm key asks whatever it signs, an SSHSIG request in its namespaces too).
    public func signingVerdict(_ key: PublicKey, signing data: SignedData, on connection: AgentConnectionState) -> SigningVerdict {
        let held = heldKeys().filter { $0.publicKeyBlob == key.blob }
        if connection.bindFailed || lock?.isLocked == true { return .refused }
        let (allowed, permitted) = mutex.locked { stages(held, for: .signing(data), on: connection) }
        guard let permitted else { return .refused }
        guard let stored = permitted.first else { return allowed.isEmpty ? .refused : .refusedOutsideNamespaces }
        return stored.confirm ? .needsApproval(stored) : .permitted(stored)
    }

    /// The log's word for a refusal by rule 6 (`agent log` shows it as the decision).
    public static let namespaceRefusal = "namespace"

    /// The whole decision for one signature: the verdict, then (for a confirm key) a grant
    /// or the approver's answer. `how` is the log's word for it (nil for a refusal by
    /// rules 1 to 5, `namespace` for one by rule 6).
    public func decideSigning(_ key: PublicKey, signing data: SignedData, on connection: AgentConnectionState) -> AgentSignDecision {
        switch signingVerdict(key, signing: data, on: connection) {
        case .refused: return .refused(nil)
        case .refusedOutsideNamespaces: return .refused(Self.namespaceRefusal)
        case .permitted(let stored):
            if key.needsSecurityKey { approvals.tellToTouch(approvalRequest(stored, signing: data, on: connection)) }
            return .allowed(AgentApprovals.Decision.noConfirm.rawValue)
        case .needsApproval(let stored):
            let request = approvalRequest(stored, signing: data, on: connection)
            let decision = approvals.decide(request)
            if decision.allows, key.needsSecurityKey { approvals.tellToTouch(request) }
            return AgentSignDecision(allowed: decision.allows, how: decision.rawValue)
        }
    }

    /// What the prompt shows for a signature of `data` with `key` on `connection`: the
    /// program is the one the connection's pidfd verifies (none without one).
    public func approvalRequest(_ key: StoredKey, signing data: SignedData, on connection: AgentConnectionState) -> ApprovalRequest {
        let program = connection.peer.process?.current()
        let chain = ProcessChain.chain(from: connection.peer.pid, ancestors: ApprovalRequest.ancestorsShown)
        let subject: ApprovalSubject = switch data {
        case .userAuthentication(let auth): .userAuthentication(user: auth.user)
        case .sshsig(let request): .sshsig(namespace: request.namespace)
        case .unidentified: .unidentified
        }
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
            return ApprovalRequest(key: key, destination: destination, subject: subject, dataDigest: connection.signingDigest ?? "?",
                                   program: program, chain: chain, forwardedThrough: through, requester: connection.peer.process)
        }
    }

    private static func savedDestinations(trusting hostKey: PresentedHostKey, in database: HostDatabase) throws -> [SavedDestination] {
        try KnownHostsStore(database: database).hostNames(trusting: hostKey).compactMap { name in
            try database.host(named: name).map { SavedDestination(name: $0.name, user: $0.user, hostname: $0.hostname, port: $0.port) }
        }
    }

    /// The Agent library's policy: its listing and its signing both decided by `permitted`.
    /// `identity` gives a permitted key its signer (nil: not available, left out); a key's
    /// user certificate follows it while valid (AgentCertificateOffer), and
    /// `certificateNotValid` is told of one left out.
    public func agentPolicy(identity: @escaping @Sendable (StoredKey) -> AgentIdentity?,
                            outcome: (@Sendable (AgentConnectionState, PublicKey, AgentSignOutcome) -> Void)? = nil,
                            certificateNotValid: (@Sendable (AgentConnectionState, StoredKey, Certificate) -> Void)? = nil,
                            lock: (@Sendable (SecretBytes) -> Bool)? = nil,
                            unlock: (@Sendable (SecretBytes) -> Bool)? = nil) -> AgentPolicy {
        AgentPolicy(identities: { [self] state in
                        let now = AgentCertificateOffer.now()
                        return permitted(heldKeys(), for: .listing, on: state).flatMap { key -> [AgentIdentity] in
                            guard let plain = identity(key) else { return [] }
                            let offer = AgentCertificateOffer.identities(plain, of: key, now: now)
                            if let left = offer.notValid { certificateNotValid?(state, key, left) }
                            return offer.identities
                        }
                    },
                    maySign: { [self] state, identity, data in decideSigning(identity.publicKey, signing: data, on: state) },
                    outcome: outcome, lock: lock, unlock: unlock)
    }

    // MARK: The database's answers (called under `mutex`)

    /// Rule 5.
    private func boundKeys(_ keys: [StoredKey], destination: PresentedHostKey) throws -> [StoredKey] {
        switch rules.keys {
        case .sessionHops(let hops):
            // The hops whose host key this is: the plan's decision when it trusted this key
            // for the hop (no second decision); otherwise asked of the trust core once each,
            // as KnownHostsCommand asks (SSHHostKeyLookup.decide) when ssh checks the server.
            var trusted: Set<String> = []
            let store = try database().map { KnownHostsStore(database: $0) }
            for hop in hops {
                if hop.planTrusts(destination) {
                    trusted.insert(hop.key.fingerprint)
                } else if let store, try store.check(HostLookupName(host: hop.host, port: hop.port), presented: destination).decision.status == .trusted {
                    trusted.insert(hop.key.fingerprint)
                }
            }
            return keys.filter { trusted.contains($0.fingerprint) }
        case .everySavedKey:
            guard let database = try database() else { return [] }
            let store = KnownHostsStore(database: database)
            let names = try store.hostNames(trusting: destination)
            let keyNames = Set(try names.compactMap { try database.host(named: $0)?.key?.lowercased() })
            if keyNames.isEmpty { return keys }
            return keys.filter { keyNames.contains($0.name.lowercased()) }
        }
    }

    /// Rule 6.
    private func restrictedToNamespaces(_ keys: [StoredKey], for use: Use, on connection: AgentConnectionState) throws -> [StoredKey] {
        guard !keys.isEmpty, let database = try database() else { return keys }
        let restricted = try KeyNamespaces(database: database).all()
        if restricted.isEmpty { return keys }
        let unbound = connection.bindings.isEmpty
        return keys.filter { key in
            guard let namespaces = restricted[key.id] else { return true }
            switch use {
            case .listing: return unbound
            case .signing(.sshsig(let request)): return unbound && namespaces.contains(request.namespace)
            case .signing: return false
            }
        }
    }

    /// Rule 3: whether the saved hosts behind a forwarding hop's host key all allow it.
    private func forwardingAllowed(through hostKey: PresentedHostKey) throws -> Bool {
        guard let database = try database() else { return false }
        let names = try KnownHostsStore(database: database).hostNames(trusting: hostKey)
        return try !names.isEmpty && names.allSatisfy { try database.host(named: $0)?.allowAgentForwarding == true }
    }
}
