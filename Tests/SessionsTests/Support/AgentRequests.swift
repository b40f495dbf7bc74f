// The agent requests the standing agent's in-process tests send, as ssh would: a session
// bound to a saved host's host key (session-bind@openssh.com), a publickey-hostbound
// user-authentication request for that session, a sign request, and the names a listing
// gives. The bytes are TestSupport's AgentWire; this gives it this target's key types.
@testable import Agent
import KeyFormats
import TestSupport

struct AgentRequests {
    /// Each host's host key, by host name.
    let hostKeys: [String: PrivateKey]

    static func sessionID(_ hostKeyBlob: [UInt8]) -> [UInt8] { AgentWire.sessionID(hostKeyBlob: hostKeyBlob) }

    /// The comments of the keys `c` lists.
    static func listed(_ c: AgentConversation) -> [String] {
        var conversation = c
        return AgentWire.listedComments(conversation.reply(to: [11])) ?? ["(not an identities answer)"]
    }

    func bind(_ host: String) -> [UInt8] {
        let key = hostKeys[host]!
        let id = Self.sessionID(key.publicKey.blob)
        return AgentWire.sessionBind(hostKeyBlob: key.publicKey.blob, sessionID: id, signature: try! key.sign(id))
    }

    /// A publickey-hostbound user-authentication request by `key` for the session bound to `host`.
    func userAuth(_ key: PublicKey, bound host: String) -> [UInt8] {
        let blob = hostKeys[host]!.publicKey.blob
        return AgentWire.hostboundUserAuth(sessionID: Self.sessionID(blob), keyType: key.type, keyBlob: key.blob, hostKeyBlob: blob)
    }

    static func signRequest(_ key: PublicKey, data: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        AgentWire.signRequest(keyBlob: key.blob, data: data, flags: flags)
    }
}
