// hostbook's own agent extension `key-status@hostbook.io` (an SSH_AGENTC_EXTENSION, message
// 27, named as draft-miller-ssh-agent section 4.8 asks of vendor extensions): can the agent
// sign with a key it lists, and if not, why. `hostbook known-hosts lookup` (ssh's
// KnownHostsCommand, run during key exchange, before authentication) asks it so that ssh's
// own output says what is wrong where ssh itself would say only "agent refused operation".
//
//   request: byte 27, string "key-status@hostbook.io", string key blob
//   reply:   byte SSH_AGENT_SUCCESS, string status ("ready" or "unavailable"),
//            string message, string hint (both empty when ready)
//            or SSH_AGENT_FAILURE: a key this connection is not offered, a forwarded
//            connection, or an agent that does not answer this extension (any other agent)
//
// The client side waits a bounded time and takes anything but a well-formed answer as
// "not told".
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum AgentKeyStatus: Sendable, Equatable {
    public static let extensionName = "key-status@hostbook.io"

    /// The agent holds the key's private half, or could read it now.
    case ready
    /// The agent cannot sign with it: what is wrong, and what fixes it.
    case unavailable(message: String, hint: String)

    /// The reply body for this status.
    var reply: [UInt8] {
        var w = SSHWriter()
        w.writeByte(AgentMessageType.success)
        switch self {
        case .ready:
            w.writeString(Array("ready".utf8))
            w.writeString([])
            w.writeString([])
        case .unavailable(let message, let hint):
            w.writeString(Array("unavailable".utf8))
            w.writeString(Array(message.utf8))
            w.writeString(Array(hint.utf8))
        }
        return w.bytes
    }

    /// The status a reply body says; nil for a failure or anything malformed.
    static func parse(reply body: [UInt8]) -> AgentKeyStatus? {
        var r = SSHReader(body)
        guard (try? r.readByte()) == AgentMessageType.success,
              let status = try? r.readString(), let message = try? r.readString(), let hint = try? r.readString(),
              (try? r.expectEnd("key status")) != nil,
              let messageText = String(validating: message, as: UTF8.self),
              let hintText = String(validating: hint, as: UTF8.self) else { return nil }
        switch status {
        case Array("ready".utf8): return .ready
        case Array("unavailable".utf8): return .unavailable(message: messageText, hint: hintText)
        default: return nil
        }
    }

    /// The request body asking about `keyBlob`.
    static func request(keyBlob: [UInt8]) -> [UInt8] {
        var w = SSHWriter()
        w.writeByte(AgentMessageType.extension)
        w.writeString(Array(extensionName.utf8))
        w.writeString(keyBlob)
        return w.bytes
    }

    /// Asks the agent at `socket` about `keyBlob`; nil when it does not tell (nothing
    /// answers, a failure, another agent, or no answer within `timeoutMilliseconds`).
    public static func query(socket: String, keyBlob: [UInt8], timeoutMilliseconds: Int32 = 1000) -> AgentKeyStatus? {
        guard let fd = try? UnixSocket.connect(to: socket) else { return nil }
        defer { close(fd) }
        guard LengthPrefixedFrame.write(request(keyBlob: keyBlob), to: fd),
              let body = LengthPrefixedFrame.read(from: fd, maxLength: AgentServer.maxFrame,
                                                  timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        return parse(reply: body)
    }
}
