// Why ssh would get no key from the agent it uses, told before it tries: asked by
// `hostbook known-hosts lookup` (ssh's KnownHostsCommand, which runs before authentication
// with ssh's SSH_AUTH_SOCK, set from IdentityAgent: ssh.c) for a saved host with a key.
// Without this, ssh with the installed configuration reported a stopped or locked agent only
// as "Permission denied (publickey)".
public import HostStore
import Agent

public enum AgentReadiness: Sendable, Equatable {
    /// The agent lists the host's key.
    case ready
    /// Nothing answers at the socket: the agent is not running.
    case notRunning(socket: String)
    /// The agent lists no key at all: it is locked (a locked agent lists nothing).
    case listsNothing(socket: String)
    /// Something else (it lists other keys, or does not answer as an agent): not told.
    case undetermined

    /// The readiness of the agent at `socket` to sign with `key`.
    public static func check(socket: String, key: StoredKey) -> AgentReadiness {
        switch AgentKeyListing.keys(at: socket) {
        case .notRunning: return .notRunning(socket: socket)
        case .noAnswer: return .undetermined
        case .keys(let blobs):
            if blobs.contains(key.publicKeyBlob) { return .ready }
            return blobs.isEmpty ? .listsNothing(socket: socket) : .undetermined
        }
    }
}
