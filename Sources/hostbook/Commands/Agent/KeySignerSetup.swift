// The signers of the keys whose private half is not in the vault, as the standing agent
// (`agent run`) and `hostbook ssh` set them up: one provider per KeyLocation (Sessions'
// KeySigners). A new kind of credential (a security key's middleware, a token's module)
// adds its provider here; the access policy and the agents stay as they are. A location
// without a provider is read through the vault, as before (an sk key's handle, which
// cannot sign by itself).
import Sessions

enum KeySignerSetup {
    /// `upstreams`: the other agents' sockets, in the order they are asked.
    static func signers(upstreams: [String]) -> KeySigners {
        KeySigners([.upstream: UpstreamKeySigners(sockets: upstreams)])
    }
}
