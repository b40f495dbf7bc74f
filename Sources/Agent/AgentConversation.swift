// One client connection's conversation: each request frame in, one reply frame out.
// Read-only: adding, removing, smartcard and constrained requests are refused; lock,
// unlock and drop-keys (AgentDropKeys) go to the policy (refused when it has none, as in a per-session agent, and on a
// forwarded connection, whose far end is not the user at this machine). A connection whose
// session-bind fails is refused everything after it, whatever the policy: it said it was
// ssh talking to a server and could not show which, so it is no local client either
// (ssh-agent.c identity_permitted refuses its destination-constrained keys the same way:
// "previous session bind failed on socket"). Pure apart from signing, so tests and the
// fuzz target drive it without a socket.
import KeyFormats

public struct AgentConversation: Sendable {
    /// ssh-agent keeps at most 16 bindings per connection.
    public static let maxBindings = 16

    public private(set) var state: AgentConnectionState
    let policy: AgentPolicy

    public init(peer: AgentPeer, policy: AgentPolicy) {
        self.state = AgentConnectionState(peer: peer)
        self.policy = policy
    }

    /// The reply body for one request body.
    public mutating func reply(to body: [UInt8]) -> [UInt8] {
        guard let request = try? AgentRequest.parse(body) else { return AgentReply.failure }
        if state.bindFailed { return refuseAfterFailedBind(request) }
        switch request {
        case .requestIdentities:
            return AgentReply.identities(policy.identities(state).map { ($0.blob, $0.comment) })
        case .sign(let blob, let data, let flags):
            return sign(keyBlob: blob, data: data, flags: flags)
        case .sessionBind(let bind):
            return self.bind(bind)
        case .malformedSessionBind:
            state.bindFailed = true
            return AgentReply.failure
        case .lock(let passphrase):
            guard !state.isForwarded else { return AgentReply.failure }
            return policy.lock?(passphrase) == true ? AgentReply.success : AgentReply.failure
        case .unlock(let passphrase):
            guard !state.isForwarded else { return AgentReply.failure }
            return policy.unlock?(passphrase) == true ? AgentReply.success : AgentReply.failure
        case .keyStatus(let blob):
            // Only for a key this connection is offered, and never through a forwarded
            // agent: the far end is not the user at this machine.
            guard !state.isForwarded, let status = policy.keyStatus,
                  let identity = policy.identities(state).first(where: { $0.blob == blob }),
                  let answer = status(state, identity) else { return AgentReply.failure }
            return answer.reply
        case .dropKeys:
            // Like lock: never through a forwarded agent.
            guard !state.isForwarded, let drop = policy.dropKeys else { return AgentReply.failure }
            drop()
            return AgentReply.success
        case .otherExtension, .modifies, .unknown:
            return AgentReply.failure
        }
    }

    private mutating func bind(_ request: SessionBindRequest) -> [UInt8] {
        // A connection bound for authentication is not re-bound (ssh-agent.c), and the
        // number of forwarding hops recorded is bounded.
        guard state.bindings.count < Self.maxBindings,
              !state.bindings.contains(where: { !$0.isForwarding }) else { return AgentReply.failure }
        guard let hostKey = request.verifiedHostKey() else {
            state.bindFailed = true
            return AgentReply.failure
        }
        state.bindings.append(SessionBinding(hostKey: hostKey, sessionID: request.sessionID, isForwarding: request.isForwarding))
        return AgentReply.success
    }

    /// After a failed session-bind: nothing listed, every signature refused (and the
    /// refusal told, like any other), every other request refused.
    private func refuseAfterFailedBind(_ request: AgentRequest) -> [UInt8] {
        switch request {
        case .requestIdentities:
            return AgentReply.identities([])
        case .sign(let blob, _, _):
            if let (key, certificate) = Self.named(blob) {
                policy.outcome?(state, key, AgentSignOutcome(signed: false, how: nil, certificate: certificate))
            }
            return AgentReply.failure
        default:
            return AgentReply.failure
        }
    }

    /// The plain key a sign request names, and the certificate when it names one.
    private static func named(_ blob: [UInt8]) -> (PublicKey, Certificate?)? {
        if let key = try? PublicKey(blob: blob) { return (key, nil) }
        if let certificate = try? Certificate(blob: blob) { return (certificate.key, certificate) }
        return nil
    }

    private func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32) -> [UInt8] {
        let offered = policy.identities(state)
        guard let identity = offered.first(where: { $0.blob == keyBlob }) else {
            // A key (or certificate) this connection is not offered (locked, another
            // destination's, outside its validity, or not held at all) is refused, and the
            // refusal is told like any other.
            if let (key, certificate) = Self.named(keyBlob) {
                policy.outcome?(state, key, AgentSignOutcome(signed: false, how: nil, certificate: certificate))
            }
            return AgentReply.failure
        }
        let (reply, how, certificate) = sign(identity, offered: offered, data: data, flags: flags)
        policy.outcome?(state, identity.publicKey, AgentSignOutcome(signed: reply.first == AgentMessageType.signResponse, how: how,
                                                                    certificate: certificate))
        return reply
    }

    /// The reply, how `maySign` decided (nil when it was not asked), and the certificate
    /// the signature is for.
    private func sign(_ identity: AgentIdentity, offered: [AgentIdentity], data: [UInt8], flags: UInt32)
        -> ([UInt8], String?, Certificate?) {
        let keyBlob = identity.blob
        let signed = SignedData(data)
        var certificate = identity.certificate
        if case .userAuthentication(let auth) = signed, auth.keyBlob != keyBlob, identity.certificate == nil {
            // ssh names the plain key when the certificate comes from its CertificateFile
            // (sshconnect2.c signs with the agent's key for it): the data then carries a
            // certificate of that key, which counts only when this connection is offered it.
            certificate = offered.first(where: { $0.certificate != nil && $0.blob == auth.keyBlob && $0.publicKey.blob == keyBlob })?.certificate
        }
        if let binding = state.bindings.last {
            // Bound: only a user-authentication request for the bound session, and for the
            // hostbound method only the bound host key; the key named is the one asked for
            // or an offered certificate of it.
            guard case .userAuthentication(let auth) = signed, auth.sessionID == binding.sessionID,
                  auth.keyBlob == keyBlob || auth.keyBlob == certificate?.blob else {
                return (AgentReply.failure, nil, certificate)
            }
            if let hostKey = auth.hostKeyBlob, hostKey != binding.hostKey.blob { return (AgentReply.failure, nil, certificate) }
        }
        var deciding = state
        deciding.signingDigest = "SHA256:" + Base64.encode(Digest.sha256(data), padded: false)
        let decision = policy.maySign(deciding, identity, signed)
        guard decision.allowed else { return (AgentReply.failure, decision.how, certificate) }
        let hash: RSASignatureHash = flags & AgentSignFlags.rsaSHA512 != 0 ? .sha512 : flags & AgentSignFlags.rsaSHA256 != 0 ? .sha256 : .sha1
        guard let signature = try? identity.sign(data, rsaHash: hash) else { return (AgentReply.failure, decision.how, certificate) }
        return (AgentReply.signature(signature), decision.how, certificate)
    }
}
