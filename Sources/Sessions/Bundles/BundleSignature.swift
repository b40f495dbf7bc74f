// The signature of a team bundle: `bundle.txt.sig`, an SSHSIG signature file
// (KeyFormats' SSHSignatureFile) in namespace `hostbook-bundle` over exactly the bytes of
// `bundle.txt`, which `ssh-keygen -Y verify -n hostbook-bundle` accepts.
// * Signing goes through the standing agent (AgentSSHSIGSigner), as `ssh-keygen -Y sign`
//   would: hostbook holds no private key itself. The agent's policy (AgentAccessPolicy rule 6)
//   signs an SSHSIG request in `hostbook-bundle` with an unrestricted key, or a key restricted
//   to namespaces that include it; a key restricted to others (`git`) is refused here first,
//   with the command that lifts it, since the agent can only answer "failure".
// * Verifying returns the key that signed; whether it is a trusted signer of the bundle is
//   BundleIntake's question.
public import HostStore
public import KeyFormats

public enum BundleSignature {
    /// The SSHSIG namespace of every bundle signature.
    public static let namespace = "hostbook-bundle"

    /// Signs `message` with the saved key `keyName` through the agent at `socket`, and checks
    /// the signature before it is returned. Refusals are SessionRefusal cases: no such key (not found), a key restricted to other namespaces (rejected),
    /// an agent that is not running, is locked, or refuses (failed).
    public static func sign(_ message: [UInt8], keyName: String, database: HostDatabase, socket: String) throws -> SSHSignatureFile {
        guard let key = try KeyStore(database: database).find(name: keyName) else {
            throw SessionRefusal.keyNotFound(name: keyName)
        }
        let publicKey = try PublicKey(blob: key.publicKeyBlob)
        let namespaces = try KeyNamespaces(database: database).namespaces(of: key)
        if !namespaces.isEmpty, !namespaces.contains(namespace) {
            throw SessionRefusal.namespaceNotAllowed(key: key.name, namespaces: namespaces, namespace: namespace)
        }
        if publicKey.needsSecurityKey || { if case .dsa = publicKey.algorithm { return true } else { return false } }() {
            throw SessionRefusal.keyCannotSignBundles(key: key.name, type: publicKey.type)
        }
        return try AgentSSHSIGSigner.sign(message, by: publicKey, keyName: key.name, namespace: namespace,
                                          sockets: [socket], purpose: "bundles")
    }

    /// The key that signed `message`, when `signature` (the `.sig` file's bytes) is a valid
    /// signature over exactly those bytes in namespace `hostbook-bundle`. Whether that key may
    /// sign the bundle is the caller's question (BundleIntake). Refusals are `.rejected`.
    public static func signer(of message: [UInt8], signature: [UInt8]?, shownAs path: String) throws -> PublicKey {
        guard let signature else {
            throw SessionRefusal.bundleNotSigned(path: path)
        }
        do {
            return try SSHSignatureFile.parse(signature).verify(message: message, namespace: namespace)
        } catch {
            throw SessionRefusal.bundleSignatureInvalid(reason: "\(error)")
        }
    }
}
