// The signers of the keys whose private half is not in the vault, as the standing agent
// (`agent run`) and `hostbook ssh` set them up: one provider per KeyLocation (Sessions'
// KeySigners), and one handle signer per location whose handle the vault holds (a security
// key's: SecurityKeyHandleSigner). A new kind of credential (a token's module) adds its
// provider here; the access policy and the agents stay as they are. A location without
// either is read through the vault. Asking a PIN is the caller's.
import Agent
import HostStore
import SecureMemory
import Sessions
import Tokens

public enum LocationSigners {
    /// `upstreams`: the other agents' sockets, in the order they are asked. Token keys are
    /// found, when they sign, in `database` (the command's own handle, read afresh each time
    /// under its lock: the agents sign on their own threads; nil: there is no database, so no
    /// token key); `askTokenPIN` gives a token's PIN, nil when nobody could be asked;
    /// `securityKeys` signs with an sk key's handle read from the vault.
    public static func make(upstreams: [String], database: SharedDatabase?, securityKeys: SecurityKeyHandleSigner,
                            askTokenPIN: @escaping @Sendable (StoredKey, TokenInfo) -> SecretBytes?) -> KeySigners {
        KeySigners([.upstream: UpstreamKeySigners(sockets: upstreams),
                    .token: TokenKeySigners(place: { key in
                        try database?.read { try TokenKeys(database: $0).place(of: key) }
                    }, askPIN: askTokenPIN)],
                   handleSigners: [.securityKey: securityKeys])
    }
}
