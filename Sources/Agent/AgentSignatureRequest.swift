// The client side of one signature: SSH_AGENTC_SIGN_REQUEST (key blob, data, flags) →
// SSH_AGENT_SIGN_RESPONSE (the signature blob) or SSH_AGENT_FAILURE
// (draft-miller-ssh-agent section 4.5). What `hostbook bundle export` asks the standing
// agent for an SSHSIG signature, as `ssh-keygen -Y sign` asks it (sshsig.c with
// ssh_agent_sign). For an RSA key the caller passes the flag of the hash its signature
// must use (sshsig.c signs rsa-sha2-512 with sha512).
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum AgentSignatureRequest {
    public enum Answer: Sendable, Equatable {
        /// The signature blob (`string algorithm`, `string signature`, ...).
        case signature([UInt8])
        /// Nothing listens at the socket (no such file, or the connection was refused).
        case notRunning
        /// The agent answered SSH_AGENT_FAILURE: it refused (locked, a key it does not hold
        /// or may not use for this data, an approval declined).
        case refused
        /// Something answered, but not with a signature or a failure within the time.
        case noAnswer
    }

    /// Asks the agent at `socket` to sign `data` with the key of `keyBlob`. Waits at most
    /// `timeoutMilliseconds` (long: a key saved with `--confirm` waits for the user).
    public static func sign(at socket: String, keyBlob: [UInt8], data: [UInt8], flags: UInt32 = 0,
                            timeoutMilliseconds: Int32 = 300_000) -> Answer {
        let fd: Int32
        do { fd = try UnixSocket.connect(to: socket) } catch { return .notRunning }
        defer { close(fd) }
        var w = SSHWriter()
        w.writeByte(AgentMessageType.signRequest)
        w.writeString(keyBlob)
        w.writeString(data)
        w.writeUInt32(flags)
        guard LengthPrefixedFrame.write(w.bytes, to: fd),
              let body = LengthPrefixedFrame.read(from: fd, maxLength: AgentServer.maxFrame,
                                                  timeoutMilliseconds: timeoutMilliseconds) else { return .noAnswer }
        var r = SSHReader(body)
        switch try? r.readByte() {
        case AgentMessageType.failure: return .refused
        case AgentMessageType.signResponse:
            guard let blob = try? r.readString(), r.isAtEnd else { return .noAnswer }
            return .signature(blob)
        default: return .noAnswer
        }
    }
}
