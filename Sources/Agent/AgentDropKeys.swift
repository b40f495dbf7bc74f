// hostbook's own agent extension `drop-keys@hostbook.io` (an SSH_AGENTC_EXTENSION, message 27,
// named as draft-miller-ssh-agent section 4.8 asks of vendor extensions): forget every
// private key read so far, and every approval grant, now. `hostbook vault lock` sends it to
// the standing agent, so the keys of a vault just locked are gone at once rather than when
// the agent next finds the vault locked. The agent keeps listing its saved keys; a signature
// reads the private half from the vault again (refused while the vault stays locked). Unlike
// `ssh-add -x` (AgentLock) it takes no passphrase and leaves the agent unlocked.
//
//   request: byte 27, string "drop-keys@hostbook.io"
//   reply:   byte SSH_AGENT_SUCCESS once the keys are dropped, or SSH_AGENT_FAILURE: a
//            forwarded connection (the far end is not the user at this machine), or an
//            agent that does not answer this extension (any other agent)
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum AgentDropKeys {
    public static let extensionName = "drop-keys@hostbook.io"

    /// The request body.
    static var request: [UInt8] {
        var w = SSHWriter()
        w.writeByte(AgentMessageType.extension)
        w.writeString(Array(extensionName.utf8))
        return w.bytes
    }

    /// Asks the agent at `socket` to drop its keys; true when it said it did (false when
    /// nothing answers there, another agent refuses, or no answer within the timeout).
    public static func send(socket: String, timeoutMilliseconds: Int32 = 2000) -> Bool {
        guard let fd = try? UnixSocket.connect(to: socket) else { return false }
        defer { close(fd) }
        guard LengthPrefixedFrame.write(request, to: fd),
              let body = LengthPrefixedFrame.read(from: fd, maxLength: AgentServer.maxFrame,
                                                  timeoutMilliseconds: timeoutMilliseconds) else { return false }
        return body == AgentReply.success
    }
}
