// What the agent serves: an identity is a public key (or certificate) blob, the comment
// `ssh-add -l` shows, and a signer for its private half. Where that private half lives (in
// this process's secure memory, read from the vault; on a security key; on a token; in
// another agent) is the signer's business: the protocol and the access policy see only the
// public half, so a new kind of credential is one more `AgentSigner` and nothing else.
public import KeyFormats

/// Signs with an identity's private half, wherever it lives. `rsaHash` is the hash the
/// request's flags asked of an RSA key (SSH_AGENT_RSA_SHA2_256 / _512; ignored for every
/// other type). The answer is the signature blob (`string algorithm, string signature`,
/// and for an sk key its flags and counter). A thrown error refuses the request; what the
/// error says is the caller's to word (the standing agent logs it as the refusal's reason).
public protocol AgentSigner: Sendable {
    func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8]
}

public struct AgentIdentity: Sendable {
    /// The key that signs (for a certificate identity, the certificate's key).
    public let publicKey: PublicKey
    /// What the agent lists and what a sign request names: the key's blob, or a
    /// certificate's blob whose key is `publicKey`.
    public let blob: [UInt8]
    public let comment: String
    public let signer: any AgentSigner

    /// A private key already in secure memory.
    public init(key: PrivateKey, comment: String) {
        self.init(publicKey: key.publicKey, comment: comment, signer: HeldKeySigner(key))
    }

    /// `blob`: a certificate of `publicKey` to list instead of the plain key (nil: the key).
    public init(publicKey: PublicKey, blob: [UInt8]? = nil, comment: String, signer: any AgentSigner) {
        self.publicKey = publicKey
        self.blob = blob ?? publicKey.blob
        self.comment = comment
        self.signer = signer
    }

    /// A signer the caller supplies as a function (a standing agent reads the private key
    /// only when it is first needed).
    public init(publicKey: PublicKey, comment: String, signer: @escaping @Sendable ([UInt8], RSASignatureHash) throws -> [UInt8]) {
        self.init(publicKey: publicKey, comment: comment, signer: FunctionSigner(function: signer))
    }

    public func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8] { try signer.sign(data, rsaHash: rsaHash) }
}

/// A private key captured by a signer (its secret fields are in secure memory).
private final class HeldKeySigner: AgentSigner, @unchecked Sendable {
    let key: PrivateKey
    init(_ key: PrivateKey) { self.key = key }
    func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8] { try key.sign(data, rsaHash: rsaHash) }
}

private struct FunctionSigner: AgentSigner {
    let function: @Sendable ([UInt8], RSASignatureHash) throws -> [UInt8]
    func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8] { try function(data, rsaHash) }
}

extension AgentSignFlags {
    /// The flags of a sign request that asks `rsaHash` of an RSA key (what a signer that
    /// forwards the request to another agent sends on).
    public static func flags(for rsaHash: RSASignatureHash) -> UInt32 {
        switch rsaHash {
        case .sha256: rsaSHA256
        case .sha512: rsaSHA512
        case .sha1: 0
        }
    }
}
