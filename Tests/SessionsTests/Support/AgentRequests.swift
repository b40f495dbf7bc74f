// The agent requests the standing agent's in-process tests send, as ssh would: a session
// bound to a saved host's host key (session-bind@openssh.com), a publickey-hostbound
// user-authentication request for that session, a sign request, and the names a listing
// gives.
@testable import Agent
import KeyFormats

struct AgentRequests {
    /// Each host's host key, by host name.
    let hostKeys: [String: PrivateKey]

    static func sessionID(_ hostKeyBlob: [UInt8]) -> [UInt8] { Array(hostKeyBlob.suffix(32)) }

    /// The comments of the keys `c` lists.
    static func listed(_ c: AgentConversation) -> [String] {
        var conversation = c
        var r = SSHReader(conversation.reply(to: [11]))
        guard (try? r.readByte()) == 12, let count = try? r.readUInt32() else { return ["(not an identities answer)"] }
        return (0..<count).compactMap { _ in
            _ = try? r.readString()
            return try? r.readText("comment")
        }
    }

    func bind(_ host: String) -> [UInt8] {
        let key = hostKeys[host]!
        let id = Self.sessionID(key.publicKey.blob)
        var w = SSHWriter()
        w.writeByte(27)
        w.writeString("session-bind@openssh.com")
        w.writeString(key.publicKey.blob)
        w.writeString(id)
        w.writeString(try! key.sign(id))
        w.writeBool(false)
        return w.bytes
    }

    /// A publickey-hostbound user-authentication request by `key` for the session bound to `host`.
    func userAuth(_ key: PublicKey, bound host: String) -> [UInt8] {
        let blob = hostKeys[host]!.publicKey.blob
        var w = SSHWriter()
        w.writeString(Self.sessionID(blob))
        w.writeByte(50)
        w.writeString("alice")
        w.writeString("ssh-connection")
        w.writeString("publickey-hostbound-v00@openssh.com")
        w.writeBool(true)
        w.writeString(key.type)
        w.writeString(key.blob)
        w.writeString(blob)
        return w.bytes
    }

    static func signRequest(_ key: PublicKey, data: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        var w = SSHWriter()
        w.writeByte(13)
        w.writeString(key.blob)
        w.writeString(data)
        w.writeUInt32(flags)
        return w.bytes
    }
}
