// The ssh-agent messages the agent tests send, byte for byte as ssh and ssh-keygen send them
// (draft-miller-ssh-agent, OpenSSH's PROTOCOL.agent and PROTOCOL.sshsig), written over plain
// bytes so that every test target builds them alike without importing Agent or KeyFormats:
// a caller passes key blobs and signatures it made with its own key types.
public enum AgentWire {
    // MARK: SSH wire encoding (RFC 4251 §5)

    public static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    /// A `string`: its length, then its bytes.
    public static func string(_ bytes: [UInt8]) -> [UInt8] { uint32(UInt32(bytes.count)) + bytes }

    public static func string(_ text: String) -> [UInt8] { string(Array(text.utf8)) }

    public static func boolean(_ value: Bool) -> [UInt8] { [value ? 1 : 0] }

    // MARK: Requests

    /// The session identifier the tests give a connection bound to a host key: the last 32
    /// bytes of the key's blob (any 32 bytes do; these differ from host to host).
    public static func sessionID(hostKeyBlob: [UInt8]) -> [UInt8] { Array(hostKeyBlob.suffix(32)) }

    /// SSH_AGENTC_EXTENSION `session-bind@openssh.com`: the connection's host key, its session
    /// identifier, the host key's signature over it, and whether the connection is forwarded.
    public static func sessionBind(hostKeyBlob: [UInt8], sessionID: [UInt8], signature: [UInt8], forwarding: Bool = false) -> [UInt8] {
        [27] + string("session-bind@openssh.com") + string(hostKeyBlob) + string(sessionID) + string(signature) + boolean(forwarding)
    }

    /// The data ssh asks the agent to sign for a `publickey-hostbound-v00@openssh.com`
    /// user-authentication request (SSH_MSG_USERAUTH_REQUEST, 50) by the key `keyType`
    /// `keyBlob` on the session `sessionID` to the host whose key is `hostKeyBlob`.
    public static func hostboundUserAuth(sessionID: [UInt8], user: String = "alice", keyType: String, keyBlob: [UInt8],
                                         hostKeyBlob: [UInt8]) -> [UInt8] {
        string(sessionID) + [50] + string(user) + string("ssh-connection") + string("publickey-hostbound-v00@openssh.com")
            + boolean(true) + string(keyType) + string(keyBlob) + string(hostKeyBlob)
    }

    /// SSH_AGENTC_SIGN_REQUEST (13): the key's blob, the data, the flags.
    public static func signRequest(keyBlob: [UInt8], data: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        [13] + string(keyBlob) + string(data) + uint32(flags)
    }

    /// What `ssh-keygen -Y sign -n NAMESPACE` hands the agent to sign (PROTOCOL.sshsig §3):
    /// the magic `SSHSIG`, the namespace, the reserved field, the hash algorithm and the hash.
    public static func sshsig(namespace: String, reserved: [UInt8] = [], hashAlgorithm: String = "sha512", hash: [UInt8]) -> [UInt8] {
        Array("SSHSIG".utf8) + string(namespace) + string(reserved) + string(hashAlgorithm) + string(hash)
    }

    /// SSH_AGENTC_LOCK (22) or SSH_AGENTC_UNLOCK (23) with `passphrase`.
    public static func passphraseMessage(_ type: UInt8, _ passphrase: String) -> [UInt8] { [type] + string(passphrase) }

    // MARK: Replies

    /// The comments of an SSH_AGENT_IDENTITIES_ANSWER (12), in order; nil when `reply` is not
    /// a whole one.
    public static func listedComments(_ reply: [UInt8]) -> [String]? {
        var at = 0
        func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard n >= 0, reply.count - at >= n else { return nil }
            defer { at += n }
            return reply[at..<(at + n)]
        }
        func count() -> Int? { take(4).map { $0.reduce(0) { $0 << 8 | Int($1) } } }
        func field() -> ArraySlice<UInt8>? { count().flatMap { take($0) } }
        guard take(1) == [12], let keys = count() else { return nil }
        var comments: [String] = []
        for _ in 0..<keys {
            guard field() != nil, let comment = field() else { return nil }
            comments.append(String(decoding: comment, as: UTF8.self))
        }
        return comments
    }
}
