// One ssh-agent message body (what follows the length prefix): the request parser, the
// user-authentication and SSHSIG parsers for sign data (on the body itself and on the data
// of a sign request), and a whole conversation under a policy that
// serves one Ed25519 key, so session-bind verification and sign checks run too.
@testable import Agent
import KeyFormats

let fuzzIdentity = AgentIdentity(key: try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "fuzz"), comment: "fuzz")

func fuzzOne(_ bytes: [UInt8]) {
    _ = try? AgentRequest.parse(bytes)
    _ = UserAuthRequest.parse(bytes)
    _ = SignedData(bytes)
    if case .sign(_, let data, _)? = try? AgentRequest.parse(bytes) { _ = SignedData(data) }
    // key-status@hostbook.io answered, and its reply parser (the client side) on the bytes.
    var policy = AgentPolicy(identities: { _ in [fuzzIdentity] })
    policy.keyStatus = { _, _ in .unavailable(message: "locked", hint: "Unlock it.") }
    _ = AgentKeyStatus.parse(reply: bytes)
    var conversation = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: policy)
    // The same bytes twice: the second may meet a bound connection.
    _ = conversation.reply(to: bytes)
    _ = conversation.reply(to: bytes)
}
