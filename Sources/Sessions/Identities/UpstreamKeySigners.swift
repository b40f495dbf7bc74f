// The saved keys another agent holds (location `upstream`, `hostbook keys import-agent`):
// each is asked of the upstream sockets in their order (`agent start --upstream`, then the
// saved setting, AgentUpstreams), found by its public key, and signed with there. A
// signature goes only to the first upstream that lists the key, so the data to sign is
// never shown to an agent that does not hold it. An upstream that is gone or answers
// nonsense is skipped; when none holds the key the error says which sockets were asked.
public import Agent
public import HostStore
import KeyFormats

public struct UpstreamKeySigners: KeySignerProvider {
    public let sockets: [String]
    public let limits: UpstreamAgentLimits

    public init(sockets: [String], limits: UpstreamAgentLimits = .standard) {
        var seen: Set<String> = []
        self.sockets = sockets.filter { seen.insert($0).inserted }
        self.limits = limits
    }

    public func signer(for key: StoredKey) -> any AgentSigner { Signer(providers: self, keyBlob: key.publicKeyBlob) }

    public func unavailable(_ key: StoredKey) -> (any Error)? {
        do { _ = try holder(of: key.publicKeyBlob) } catch { return error }
        return nil
    }

    /// The first upstream that lists the key. Throws the one upstream's error when a single
    /// socket was asked, else `keyNotHeld` naming every socket (the last error of each is
    /// not kept: "none of them holds it" is what the user needs).
    func holder(of blob: [UInt8]) throws(UpstreamAgentError) -> UpstreamAgent {
        var last: UpstreamAgentError?
        for socket in sockets {
            let agent = UpstreamAgent(socket: socket, limits: limits)
            do {
                if try agent.identities().contains(where: { $0.blob == blob }) { return agent }
                last = UpstreamAgentError(.keyNotHeld, socket: socket)
            } catch {
                last = error
            }
        }
        if sockets.count == 1, let last { throw last }
        throw UpstreamAgentError(.keyNotHeld, socket: sockets.joined(separator: ", "))
    }

    private struct Signer: AgentSigner {
        let providers: UpstreamKeySigners
        let keyBlob: [UInt8]

        func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8] {
            let key = try PublicKey(blob: keyBlob)
            return try providers.holder(of: keyBlob).sign(data, with: key, rsaHash: rsaHash)
        }
    }
}
