// Why ssh would get no key from the agent it uses, told before it tries: asked by
// `hostbook known-hosts lookup` (ssh's KnownHostsCommand, which runs before authentication
// with ssh's SSH_AUTH_SOCK, set from IdentityAgent: ssh.c) for a saved host with a key.
// Without this, ssh with the installed configuration reported a stopped or locked agent only
// as "Permission denied (publickey)", and a locked vault only as "agent refused operation".
public import HostStore
import Agent

public enum AgentReadiness: Sendable, Equatable {
    /// The agent lists the host's key.
    case ready
    /// Nothing answers at the socket: the agent is not running.
    case notRunning(socket: String)
    /// The agent lists no key at all: it is locked (a locked agent lists nothing).
    case listsNothing(socket: String)
    /// It lists the key but says it cannot sign with it (hostbook's standing agent, through
    /// AgentKeyStatus: the vault is locked, the key's item is missing, ...): what is wrong
    /// and what fixes it.
    case cannotSign(socket: String, message: String, hint: String)
    /// Something else (it lists other keys, or does not answer as an agent): not told.
    case undetermined

    /// The readiness of the agent at `socket` to sign with `key`.
    public static func check(socket: String, key: StoredKey) -> AgentReadiness {
        check(socket: socket, keyBlob: key.publicKeyBlob)
    }

    /// The readiness of the agent at `socket` to sign with the key of `keyBlob` (its wire
    /// form): `hostbook -Y sign` knows the key by its public key file only.
    public static func check(socket: String, keyBlob: [UInt8]) -> AgentReadiness {
        switch AgentKeyListing.keys(at: socket) {
        case .notRunning: return .notRunning(socket: socket)
        case .noAnswer: return .undetermined
        case .keys(let blobs):
            if blobs.contains(keyBlob) {
                // One more request, answered at once when the key is held; any other
                // agent refuses it, and no answer in time says nothing.
                if case .unavailable(let message, let hint) = AgentKeyStatus.query(socket: socket, keyBlob: keyBlob) {
                    return .cannotSign(socket: socket, message: message, hint: hint)
                }
                return .ready
            }
            return blobs.isEmpty ? .listsNothing(socket: socket) : .undetermined
        }
    }
}
