// The client side of one request: which keys an agent at a socket lists
// (SSH_AGENTC_REQUEST_IDENTITIES → SSH_AGENT_IDENTITIES_ANSWER, draft-miller-ssh-agent
// section 4.4). Used to tell ssh's user why the agent gave it no key: nothing answers at the
// socket (the agent is not running), or it lists nothing (a locked agent lists nothing,
// ssh-agent.c `process_request_identities`, and so does hostbook's AgentAccessPolicy).
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum AgentKeyListing {
    public enum Answer: Sendable, Equatable {
        /// Nothing listens at the socket (no such file, or the connection was refused).
        case notRunning
        /// The public key blobs the agent listed, in its order.
        case keys([[UInt8]])
        /// Something answered, but not with a list within the time (or not as an agent).
        case noAnswer
    }

    /// Asks the agent at `socket`; waits at most `timeoutMilliseconds` for the answer.
    public static func keys(at socket: String, timeoutMilliseconds: Int32 = 2000) -> Answer {
        let fd: Int32
        do { fd = try UnixSocket.connect(to: socket) } catch { return .notRunning }
        defer { close(fd) }
        guard LengthPrefixedFrame.write([AgentMessageType.requestIdentities], to: fd),
              (try? Poll.wait(fd, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds)) == true,
              let body = LengthPrefixedFrame.read(from: fd, maxLength: AgentServer.maxFrame) else { return .noAnswer }
        var r = SSHReader(body)
        do {
            guard try r.readByte() == AgentMessageType.identitiesAnswer else { return .noAnswer }
            let count = try r.readUInt32()
            var blobs: [[UInt8]] = []
            for _ in 0..<count {
                blobs.append(try r.readString())
                _ = try r.readString()
            }
            return .keys(blobs)
        } catch {
            return .noAnswer
        }
    }
}
