// What one `hostbook ssh NAME` connects through: the saved host and its jump hosts (each
// with its own hostname, port, user, key and password), and the snippet to run. Only the
// database is read here, and no vault: the executable reads the secrets the plan names.
public import HostStore
public import KeyFormats

public struct SSHHop: Sendable {
    public let host: Host
    /// The alias of its Host block: the saved name.
    public let alias: String
    /// The alias of the next hop towards hostbook (its ProxyJump), or nil.
    public let jumpAlias: String?
    /// The attached key's metadata (public half only).
    public let key: StoredKey?
    /// The algorithms of its trusted host keys, preferred in the key exchange.
    public var hostKeyAlgorithms: [String] = []
    /// The host keys the trust core accepts for it when the session starts
    /// (SSHHostKeyDecision.acceptedKeys, the plan's one decision for the hop): answered by
    /// the session's SSHKnownHostsScript without starting hostbook, and signed for by the
    /// session agent without deciding again (SessionHopKey).
    public var acceptedHostKeys: [PublicKey] = []
    /// The entries ssh is given to learn this hop's host-key rotation from, or nil when the
    /// rules say not to (SSHHostKeyRotation).
    public var rotation: [KnownHostRow]?
    /// True when no entry matches its name and rotation is not turned off: a first use the
    /// user approves on the terminal may learn the other keys the server proves in that
    /// session (SSHHostKeyRotation.learnsOnFirstUse).
    public var learnsOnFirstUse = false

    public init(host: Host, alias: String, jumpAlias: String?, key: StoredKey?, hostKeyAlgorithms: [String] = []) {
        self.host = host
        self.alias = alias
        self.jumpAlias = jumpAlias
        self.key = key
        self.hostKeyAlgorithms = hostKeyAlgorithms
    }

    public var publicKey: PublicKey? { key.flatMap { try? PublicKey(blob: $0.publicKeyBlob) } }
    public var hasPassword: Bool { host.auth == .password }
}

public struct SSHPlan: Sendable {
    public let databaseID: String
    /// The target first, then its jump host, that one's jump host, ...
    public var hops: [SSHHop]
    public let snippet: String?

    public init(databaseID: String, hops: [SSHHop], snippet: String?) {
        self.databaseID = databaseID
        self.hops = hops
        self.snippet = snippet
    }

    public var target: SSHHop { hops[0] }
    public var needsAgent: Bool { hops.contains { $0.key != nil } }
    public var needsAskpass: Bool { hops.contains { $0.hasPassword } }

    /// Reads the host, its jump chain and the snippet from a database the caller opened (its
    /// workspace's; nil: there is none, so no host): `hostbook ssh` opens it once and hands
    /// the same handle to its session agent. A missing host, snippet, jump host or key, or a
    /// looping or too long chain, is a SessionRefusal; a database failure is HostStore's
    /// error. `user` (`hostbook ssh USER@NAME` or `-l USER`) replaces the target's saved user
    /// for this connection only (`withUser`); the jump hosts keep theirs.
    public static func load(_ database: HostDatabase?, name: String, user: String?, snippetName: String?) throws -> SSHPlan {
        guard let database else { throw SessionRefusal.hostNotFound(name: name, nearest: nil) }
        let plan = try load(database, name: name, snippetName: snippetName)
        return user.map(plan.withUser) ?? plan
    }

    /// The plan with the target logging in as `user`. The stored password belongs to the
    /// saved user: for another user it is not answered (ssh asks on the terminal, as it
    /// would without hostbook); the attached key is still offered, as ssh offers an
    /// IdentityFile whatever the user.
    public func withUser(_ user: String) -> SSHPlan {
        var copy = self
        var host = target.host
        if host.user != user && host.auth == .password {
            host.auth = .derived(hasPassword: false, hasKey: target.key != nil)
        }
        host.user = user
        copy.hops[0] = SSHHop(host: host, alias: target.alias, jumpAlias: target.jumpAlias, key: target.key,
                              hostKeyAlgorithms: target.hostKeyAlgorithms)
        copy.hops[0].acceptedHostKeys = target.acceptedHostKeys
        copy.hops[0].rotation = target.rotation
        copy.hops[0].learnsOnFirstUse = target.learnsOnFirstUse
        return copy
    }

    /// The plan with the target logging in with `key` only (no stored password answered):
    /// how `hostbook keys deploy` proves the deployed key works before the host uses it.
    public func withKeyOnly(_ key: StoredKey) -> SSHPlan {
        var copy = self
        var host = target.host
        host.key = key.name
        host.auth = .key
        copy.hops[0] = SSHHop(host: host, alias: target.alias, jumpAlias: target.jumpAlias, key: key,
                              hostKeyAlgorithms: target.hostKeyAlgorithms)
        copy.hops[0].acceptedHostKeys = target.acceptedHostKeys
        copy.hops[0].rotation = target.rotation
        copy.hops[0].learnsOnFirstUse = target.learnsOnFirstUse
        return copy
    }

    /// `load(_:name:user:snippetName:)` from an open database, as saved.
    public static func load(_ database: HostDatabase, name: String, snippetName: String?) throws -> SSHPlan {
        let snippet: String?
        if let snippetName {
            guard let found = try database.snippet(named: snippetName) else {
                throw SessionRefusal.snippetNotFound(name: snippetName)
            }
            snippet = found.command
        } else {
            snippet = nil
        }
        guard let target = try database.host(named: name) else {
            let nearest = try database.nearestHostName(to: name)
            throw SessionRefusal.hostNotFound(name: name, nearest: nearest)
        }
        let chain: [Host]
        switch try JumpChain.walk(from: target, find: database.host(named:)) {
        case .chain(let hosts): chain = hosts
        case .loop(let hosts):
            throw SessionRefusal.jumpChainLoops(host: name, at: hosts.last!.jump ?? "")
        case .tooLong:
            throw SessionRefusal.jumpChainTooLong(host: name)
        case .missing(let jump, let of):
            throw SessionRefusal.jumpHostMissing(jump: jump, of: of)
        }
        return SSHPlan(databaseID: database.databaseID, hops: try hops(chain, in: database), snippet: snippet)
    }

    /// The hops of `chain` (the target first): each host's key and trusted host-key
    /// algorithms. A key named by a host but gone from the database meanwhile (another
    /// hostbook removed it after the host was read) is SessionRefusal.hostKeyMissing.
    static func hops(_ chain: [Host], in database: HostDatabase) throws -> [SSHHop] {
        let keys = KeyStore(database: database)
        let knownHosts = KnownHostsStore(database: database)
        var hops: [SSHHop] = []
        for (i, host) in chain.enumerated() {
            var key: StoredKey?
            if let keyName = host.key {
                guard let found = try keys.find(name: keyName) else {
                    throw SessionRefusal.hostKeyMissing(key: keyName, host: host.name)
                }
                key = found
            }
            var hop = SSHHop(host: host, alias: host.name, jumpAlias: i + 1 < chain.count ? chain[i + 1].name : nil, key: key,
                             hostKeyAlgorithms: try SSHHostKeyDecision.preferredAlgorithms(knownHosts, host: host.hostname, port: host.port))
            hop.acceptedHostKeys = try SSHHostKeyDecision.acceptedKeys(knownHosts, host: host.hostname, port: host.port)
            hop.rotation = try SSHHostKeyRotation.baseline(knownHosts, host: host.hostname, port: host.port)
            hop.learnsOnFirstUse = try SSHHostKeyRotation.learnsOnFirstUse(knownHosts, host: host.hostname, port: host.port)
            hops.append(hop)
        }
        return hops
    }
}
