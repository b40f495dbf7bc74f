// A location whose private half is a handle the vault holds (KeyLocation.hasVaultItem): a
// security key's handle names the key its authenticator keeps. The caller that holds the
// vault reads the handle (the standing agent's cached `privateKey`, `hostbook ssh`'s
// session secrets); the location's signer, registered in KeySigners beside the providers,
// signs with it. Sessions knows no device: the signer is its caller's (Workflows/Keys).
public import HostStore
public import KeyFormats

/// Signs for the saved keys of one location with the handle the vault holds for each.
public protocol VaultHandleSigner: Sendable {
    /// The signature of `data` by the key `handle` names (`key`'s vault item); it throws
    /// (an AgentKeyUnavailable in the log's words, or a typed error of its own) when it cannot.
    func sign(_ data: [UInt8], with handle: PrivateKey, for key: StoredKey, rsaHash: RSASignatureHash) throws -> [UInt8]
}
