// The client side of another ssh agent, an upstream (OpenSSH's ssh-agent holding sk or
// PKCS#11 keys, gpg-agent, yubikey-agent), that hostbook's agents list and sign through.
// Only two requests ever go to it: SSH_AGENTC_REQUEST_IDENTITIES and SSH_AGENTC_SIGN_REQUEST
// with the flags the client asked for; never add, remove, lock or an extension, so hostbook
// never changes what the upstream holds. Each request is one connection, bounded in what
// its reply may cost (UpstreamAgentLimits: size, key count, time) and parsed by
// UpstreamAgentReply. An upstream that is gone, stalls or answers nonsense is an
// UpstreamAgentError, never a crash or a hang: the caller refuses the request and logs why.
#if canImport(Glibc)
import Glibc
#endif
public import KeyFormats
import System

/// What one upstream reply may cost.
public struct UpstreamAgentLimits: Sendable, Equatable {
    /// The largest reply frame read (ssh-agent's own AGENT_MAX_LEN).
    public var maxReply: Int
    /// The most keys one listing may hold (ssh-agent keeps at most 2048, MAX_AGENT_IDENTITIES
    /// in authfd.c; no real agent comes near).
    public var maxKeys: Int
    /// The longest wait for a listing, and for a signature (a security key behind the
    /// upstream may wait for a touch).
    public var listMilliseconds: Int32
    public var signMilliseconds: Int32

    public init(maxReply: Int, maxKeys: Int, listMilliseconds: Int32, signMilliseconds: Int32) {
        self.maxReply = maxReply
        self.maxKeys = maxKeys
        self.listMilliseconds = listMilliseconds
        self.signMilliseconds = signMilliseconds
    }

    public static let standard = UpstreamAgentLimits(maxReply: 256 * 1024, maxKeys: 2048,
                                                     listMilliseconds: 5_000, signMilliseconds: 60_000)
}

/// Why an upstream gave no keys or no signature: which socket, and what happened.
public struct UpstreamAgentError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Nothing listens at the socket (no such file, the connection refused, a path too long).
        case notRunning
        /// No whole reply within the time, or the connection closed first, or a reply
        /// frame larger than the limit.
        case noAnswer
        /// A reply that is not what was asked (UpstreamAgentReply.Problem).
        case badReply(UpstreamAgentReply.Problem)
        /// The upstream refused (SSH_AGENT_FAILURE).
        case refused
        /// No upstream asked holds the key.
        case keyNotHeld
    }

    public let kind: Kind
    /// The socket the request went to (for `keyNotHeld`, every socket asked, joined by ", ").
    public let socket: String

    public init(_ kind: Kind, socket: String) {
        self.kind = kind
        self.socket = socket
    }
}

public struct UpstreamAgent: Sendable {
    public let socket: String
    public let limits: UpstreamAgentLimits

    public init(socket: String, limits: UpstreamAgentLimits = .standard) {
        self.socket = socket
        self.limits = limits
    }

    /// The keys the upstream lists, in its order.
    public func identities() throws(UpstreamAgentError) -> [UpstreamIdentity] {
        let body = try exchange([AgentMessageType.requestIdentities], timeoutMilliseconds: limits.listMilliseconds)
        do { return try UpstreamAgentReply.identities(body, maxKeys: limits.maxKeys) } catch {
            throw UpstreamAgentError(error == .refused ? .refused : .badReply(error), socket: socket)
        }
    }

    /// A signature of `data` with `key` (which the upstream should hold), the RSA hash passed
    /// on as the request's flags; checked against the key before it is returned.
    public func sign(_ data: [UInt8], with key: PublicKey, rsaHash: RSASignatureHash) throws(UpstreamAgentError) -> [UInt8] {
        var w = SSHWriter()
        w.writeByte(AgentMessageType.signRequest)
        w.writeString(key.blob)
        w.writeString(data)
        w.writeUInt32(AgentSignFlags.flags(for: rsaHash))
        let body = try exchange(w.bytes, timeoutMilliseconds: limits.signMilliseconds)
        do { return try UpstreamAgentReply.signature(body, key: key, data: data, rsaHash: rsaHash) } catch {
            throw UpstreamAgentError(error == .refused ? .refused : .badReply(error), socket: socket)
        }
    }

    /// One request frame out, one reply frame in, on a connection of its own; the whole
    /// reply within the time (a sender that stalls is not waited for longer), and a
    /// request the upstream does not read within the time is given up too.
    private func exchange(_ request: [UInt8], timeoutMilliseconds: Int32) throws(UpstreamAgentError) -> [UInt8] {
        let fd: Int32
        do { fd = try UnixSocket.connect(to: socket) } catch { throw UpstreamAgentError(.notRunning, socket: socket) }
        defer { close(fd) }
        UnixSocket.setSendTimeout(fd, milliseconds: timeoutMilliseconds)
        guard LengthPrefixedFrame.write(request, to: fd),
              let body = LengthPrefixedFrame.read(from: fd, maxLength: limits.maxReply, timeoutMilliseconds: timeoutMilliseconds)
        else { throw UpstreamAgentError(.noAnswer, socket: socket) }
        return body
    }
}
