// What the agent serves: an identity is a public key (or certificate) blob, the comment
// `ssh-add -l` shows, and a signer for its private half. Where that private half lives (in
// this process's secure memory, read from the vault; on a security key; on a token; in
// another agent) is the signer's business: the protocol and the access policy see only the
// public half (a key, or a user certificate of it), so a new kind of credential is one more
// `AgentSigner` and nothing else.
public import KeyFormats

/// Signs with an identity's private half, wherever it lives. `rsaHash` is the hash the
/// request's flags asked of an RSA key (SSH_AGENT_RSA_SHA2_256 / _512; ignored for every
/// other type). The answer is the signature blob (`string algorithm, string signature`,
/// and for an sk key its flags and counter). A thrown error refuses the request; what the
/// error says is the caller's to word (the standing agent logs it as the refusal's reason).
public protocol AgentSigner: Sendable {
    func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8]
}

/// A user certificate of a key is an identity of its own (as ssh-agent lists one added with
/// `ssh-add`): its blob is the certificate's, it signs with the certified key.
public struct AgentIdentity: Sendable {
    /// The plain key that signs (for a certificate: the certified key).
    public let publicKey: PublicKey
    public let comment: String
    /// The certificate this identity is, or nil for the plain key.
    public let certificate: Certificate?
    public let signer: any AgentSigner

    /// The blob the agent lists and a sign request names: the certificate's, else the key's.
    public var blob: [UInt8] { certificate?.blob ?? publicKey.blob }

    /// A private key already in secure memory.
    public init(key: PrivateKey, comment: String) {
        self.init(publicKey: key.publicKey, comment: comment, signer: HeldKeySigner(key))
    }

    public init(publicKey: PublicKey, comment: String, signer: any AgentSigner) {
        self.init(publicKey: publicKey, comment: comment, certificate: nil, signer: signer)
    }

    /// A signer the caller supplies as a function (a standing agent reads the private key
    /// only when it is first needed).
    public init(publicKey: PublicKey, comment: String, signer: @escaping @Sendable ([UInt8], RSASignatureHash) throws -> [UInt8]) {
        self.init(publicKey: publicKey, comment: comment, signer: FunctionSigner(function: signer))
    }

    private init(publicKey: PublicKey, comment: String, certificate: Certificate?, signer: any AgentSigner) {
        self.publicKey = publicKey
        self.comment = comment
        self.certificate = certificate
        self.signer = signer
    }

    /// `certificate` of this identity's key, signing as the key does; nil when it
    /// certifies another key.
    public func certified(by certificate: Certificate, comment: String? = nil) -> AgentIdentity? {
        guard certificate.key.blob == publicKey.blob else { return nil }
        return AgentIdentity(publicKey: publicKey, comment: comment ?? self.comment, certificate: certificate, signer: signer)
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
