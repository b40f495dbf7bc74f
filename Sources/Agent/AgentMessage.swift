// The ssh-agent messages (draft-miller-ssh-agent, PROTOCOL.agent; docs/formats.md, "ssh-agent
// protocol"): a request parsed from one frame's body, and the replies this agent sends. The
// parser takes hostile input: every length is bounded by the frame, nothing is trusted, and a
// malformed body is an error the server answers with SSH_AGENT_FAILURE.
import KeyFormats
public import SecureMemory

/// Message numbers (OpenSSH's `SSH2_AGENTC_*` / `SSH2_AGENT_*`).
public enum AgentMessageType {
    public static let failure: UInt8 = 5
    public static let success: UInt8 = 6
    public static let requestIdentities: UInt8 = 11
    public static let identitiesAnswer: UInt8 = 12
    public static let signRequest: UInt8 = 13
    public static let signResponse: UInt8 = 14
    public static let addIdentity: UInt8 = 17
    public static let removeIdentity: UInt8 = 18
    public static let removeAllIdentities: UInt8 = 19
    public static let addSmartcardKey: UInt8 = 20
    public static let removeSmartcardKey: UInt8 = 21
    public static let lock: UInt8 = 22
    public static let unlock: UInt8 = 23
    public static let addIdentityConstrained: UInt8 = 25
    public static let addSmartcardKeyConstrained: UInt8 = 26
    public static let `extension`: UInt8 = 27
}

/// Sign request flags (uint32 in message 13).
public enum AgentSignFlags {
    public static let rsaSHA256: UInt32 = 2
    public static let rsaSHA512: UInt32 = 4
}

/// One request, as the client sent it.
public enum AgentRequest: @unchecked Sendable {
    case requestIdentities
    case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
    case sessionBind(SessionBindRequest)
    /// A session-bind whose fields do not parse: refused, and the connection with it
    /// (AgentConversation), so it is told apart from other malformed messages.
    case malformedSessionBind
    /// `key-status@hostbook.io` (AgentKeyStatus): can the agent sign with this key.
    case keyStatus(keyBlob: [UInt8])
    /// `drop-keys@hostbook.io` (AgentDropKeys): forget the private keys read so far.
    case dropKeys
    /// Any other extension, by name.
    case otherExtension(name: String)
    /// 22 / 23: the passphrase, in secure memory.
    case lock(SecretBytes)
    case unlock(SecretBytes)
    /// Adding or removing keys (17, 18, 19, 20, 21, 25, 26) and the SSH-1 leftovers
    /// (`ssh-add -D` still sends 9): refused by a read-only agent. The body is not kept.
    case modifies(type: UInt8)
    case unknown(type: UInt8)
}

public struct AgentMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension AgentRequest {
    /// Parses a frame's body (type byte first, without the length prefix).
    public static func parse(_ body: [UInt8]) throws -> AgentRequest {
        guard let type = body.first else { throw AgentMessageError("empty message") }
        var r = SSHReader(Array(body.dropFirst()))
        do {
            switch type {
            case AgentMessageType.requestIdentities:
                try r.expectEnd("request identities")
                return .requestIdentities
            case AgentMessageType.signRequest:
                let blob = try r.readString()
                let data = try r.readString()
                let flags = try r.readUInt32()
                try r.expectEnd("sign request")
                return .sign(keyBlob: blob, data: data, flags: flags)
            case AgentMessageType.extension:
                let nameBytes = try r.readString()
                guard let name = String(validating: nameBytes, as: UTF8.self) else { throw AgentMessageError("extension name is not UTF-8") }
                if name == SessionBindRequest.extensionName {
                    guard let bind = try? SessionBindRequest.parse(&r) else { return .malformedSessionBind }
                    return .sessionBind(bind)
                }
                if name == AgentKeyStatus.extensionName {
                    let blob = try r.readString()
                    try r.expectEnd("key status")
                    return .keyStatus(keyBlob: blob)
                }
                if name == AgentDropKeys.extensionName {
                    try r.expectEnd("drop keys")
                    return .dropKeys
                }
                return .otherExtension(name: name)
            case AgentMessageType.lock, AgentMessageType.unlock:
                let passphrase = try r.readSecretString()
                try r.expectEnd("lock")
                return type == AgentMessageType.lock ? .lock(passphrase) : .unlock(passphrase)
            case 1...4, 7...9, 24, AgentMessageType.addIdentity, AgentMessageType.removeIdentity, AgentMessageType.removeAllIdentities,
                 AgentMessageType.addSmartcardKey, AgentMessageType.removeSmartcardKey,
                 AgentMessageType.addIdentityConstrained, AgentMessageType.addSmartcardKeyConstrained:
                return .modifies(type: type)
            default:
                return .unknown(type: type)
            }
        } catch let e as AgentMessageError {
            throw e
        } catch {
            throw AgentMessageError("malformed message \(type): \(error)")
        }
    }
}

extension SSHReader {
    /// A string read straight into secure memory (a lock passphrase).
    mutating func readSecretString() throws -> SecretBytes {
        var bytes = try readString()
        return SecretBytes(consuming: &bytes)
    }
}

/// The replies, encoded as frame bodies.
public enum AgentReply {
    public static let failure: [UInt8] = [AgentMessageType.failure]
    public static let success: [UInt8] = [AgentMessageType.success]

    public static func identities(_ list: [(blob: [UInt8], comment: String)]) -> [UInt8] {
        var w = SSHWriter()
        w.writeByte(AgentMessageType.identitiesAnswer)
        w.writeUInt32(UInt32(list.count))
        for item in list {
            w.writeString(item.blob)
            w.writeString(item.comment)
        }
        return w.bytes
    }

    public static func signature(_ blob: [UInt8]) -> [UInt8] {
        var w = SSHWriter()
        w.writeByte(AgentMessageType.signResponse)
        w.writeString(blob)
        return w.bytes
    }
}
