// session-bind@openssh.com (PROTOCOL.agent §1; docs/openssh-behaviour.md, "The agent"): ssh
// tells the agent which server host key the connection is for, proving it with that key's
// signature over the session identifier from the key exchange. The agent verifies the signature
// and then signs only user-authentication requests for that session and that host key.
import KeyFormats

public struct SessionBindRequest: Sendable, Equatable {
    public static let extensionName = "session-bind@openssh.com"

    public let hostKeyBlob: [UInt8]
    public let sessionID: [UInt8]
    public let signature: [UInt8]
    /// True on a connection forwarded to a remote machine (`ssh -A`).
    public let isForwarding: Bool

    /// Reads the fields after the extension name.
    static func parse(_ r: inout SSHReader) throws -> SessionBindRequest {
        let hostKey = try r.readString()
        let sessionID = try r.readString()
        let signature = try r.readString()
        let forwarding = try r.readByte()
        try r.expectEnd("session-bind")
        guard forwarding <= 1 else { throw AgentMessageError("session-bind: is_forwarding must be 0 or 1") }
        guard !sessionID.isEmpty, sessionID.count <= 128 else { throw AgentMessageError("session-bind: bad session identifier length") }
        return SessionBindRequest(hostKeyBlob: hostKey, sessionID: sessionID, signature: signature, isForwarding: forwarding == 1)
    }

    /// The host key, when the blob is one and its signature over the session id holds
    /// (ssh-agent.c process_ext_session_bind: sshkey_froms, then sshkey_verify). A host
    /// certificate is kept whole, so trust is decided on it; its signature over the
    /// session id is made by the certified key, and, as sshkey_from_blob requires, the
    /// CA's signature on it must verify too.
    public func verifiedHostKey() -> PresentedHostKey? {
        guard let key = try? PresentedHostKey(blob: hostKeyBlob) else { return nil }
        if case .certificate(let certificate) = key, !certificate.verifySignature() { return nil }
        guard key.plainKey.verifies(signatureBlob: signature, over: sessionID) else { return nil }
        return key
    }
}

/// A verified binding of a connection.
public struct SessionBinding: Sendable, Equatable {
    /// The server's host key as it presented it: a plain key or a host certificate.
    public let hostKey: PresentedHostKey
    public let sessionID: [UInt8]
    public let isForwarding: Bool
}

/// What ssh asks an agent to sign for public-key user authentication (RFC 4252 §7, and
/// OpenSSH's publickey-hostbound-v00@openssh.com, which appends the server's host key).
public struct UserAuthRequest: Sendable, Equatable {
    public let sessionID: [UInt8]
    public let user: String
    public let algorithm: String
    public let keyBlob: [UInt8]
    /// The server host key, for the hostbound method only.
    public let hostKeyBlob: [UInt8]?

    public static let userAuthRequestMessage: UInt8 = 50

    /// nil when `data` is not such a request.
    public static func parse(_ data: [UInt8]) -> UserAuthRequest? {
        var r = SSHReader(data)
        guard let sessionID = try? r.readString(), (try? r.readByte()) == userAuthRequestMessage,
              let user = try? r.readText("user"), let service = try? r.readText("service"), service == "ssh-connection",
              let method = try? r.readText("method"), let hasSignature = try? r.readBool(), hasSignature,
              let algorithm = try? r.readText("algorithm"), let keyBlob = try? r.readString() else { return nil }
        var hostKey: [UInt8]?
        switch method {
        case "publickey": break
        case "publickey-hostbound-v00@openssh.com":
            guard let blob = try? r.readString() else { return nil }
            hostKey = blob
        default: return nil
        }
        guard r.isAtEnd else { return nil }
        return UserAuthRequest(sessionID: sessionID, user: user, algorithm: algorithm, keyBlob: keyBlob, hostKeyBlob: hostKey)
    }
}
