// What another ssh agent (an upstream) answers hostbook's two requests with, parsed as
// hostile input: the upstream is a peer hostbook does not trust (any process of the user
// can listen at a socket path, and a forwarded or third-party agent is someone else's
// code). The frame was already bounded (UpstreamAgentLimits.maxReply); here the key count
// is bounded before anything is kept, every length by the bytes that are there, nothing
// may trail, and a signature must verify with the key it claims to be from, in the
// algorithm asked for, before it is handed on. Pure: the fuzz target `agent-upstream-reply`
// drives it (Sources/Agent/Fuzzing).
//
//   SSH_AGENT_IDENTITIES_ANSWER  byte 12, uint32 nkeys, nkeys × (string key blob, string comment)
//   SSH_AGENT_SIGN_RESPONSE      byte 14, string signature
//   SSH_AGENT_FAILURE            byte 5 (and OpenSSH's other failure numbers, 30 and 102,
//                                which authfd.c reads the same way)
// (draft-miller-ssh-agent sections 4.4 and 4.5)
public import KeyFormats

/// One key an upstream lists: its blob as sent (a plain key, or a certificate) and its comment.
public struct UpstreamIdentity: Sendable, Equatable {
    public let blob: [UInt8]
    public let comment: String

    /// The plain public key, when the blob is one (nil for a certificate or a type
    /// hostbook does not read).
    public var publicKey: PublicKey? { try? PublicKey(blob: blob) }
}

public enum UpstreamAgentReply {
    /// What is wrong with a reply.
    public enum Problem: Error, Sendable, Equatable {
        /// Not the message asked for, or its fields do not add up.
        case malformed
        /// More keys than `UpstreamAgentLimits.maxKeys`.
        case tooManyKeys
        /// The upstream said SSH_AGENT_FAILURE.
        case refused
        /// A signature that is not the key's over the data, or in another algorithm than asked.
        case badSignature
    }

    /// The failure message numbers OpenSSH's client reads as a refusal (authfd.c agent_failed).
    static let failureTypes: Set<UInt8> = [AgentMessageType.failure, 30, 102]
    /// A comment longer than this is cut (ssh-add shows one line; nothing needs more).
    static let maxCommentBytes = 1024

    /// The keys of an SSH_AGENT_IDENTITIES_ANSWER body.
    public static func identities(_ body: [UInt8], maxKeys: Int = UpstreamAgentLimits.standard.maxKeys) throws(Problem) -> [UpstreamIdentity] {
        var r = SSHReader(body)
        do {
            let type = try r.readByte()
            if failureTypes.contains(type) { throw Problem.refused }
            guard type == AgentMessageType.identitiesAnswer else { throw Problem.malformed }
            let count = Int(try r.readUInt32())
            guard count <= maxKeys else { throw Problem.tooManyKeys }
            // Each key takes at least its two length fields: a count the body cannot hold
            // is refused before anything is kept.
            guard count <= r.remaining / 8 else { throw Problem.malformed }
            var keys: [UpstreamIdentity] = []
            keys.reserveCapacity(count)
            for _ in 0..<count {
                let blob = try r.readString()
                let comment = try r.readString()
                guard !blob.isEmpty else { throw Problem.malformed }
                keys.append(UpstreamIdentity(blob: blob, comment: String(decoding: comment.prefix(maxCommentBytes), as: UTF8.self)))
            }
            guard r.isAtEnd else { throw Problem.malformed }
            return keys
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.malformed
        }
    }

    /// The signature of an SSH_AGENT_SIGN_RESPONSE body, once it verifies with `key` over
    /// `data` (for an RSA key, in the algorithm of `rsaHash`: an upstream may not answer a
    /// request for rsa-sha2-512 with ssh-rsa).
    public static func signature(_ body: [UInt8], key: PublicKey, data: [UInt8], rsaHash: RSASignatureHash) throws(Problem) -> [UInt8] {
        var r = SSHReader(body)
        let signature: [UInt8]
        do {
            let type = try r.readByte()
            if failureTypes.contains(type) { throw Problem.refused }
            guard type == AgentMessageType.signResponse else { throw Problem.malformed }
            signature = try r.readString()
            guard r.isAtEnd else { throw Problem.malformed }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.malformed
        }
        if case .rsa = key.algorithm {
            var s = SSHReader(signature)
            guard (try? s.readText()) == rsaHash.algorithmName else { throw Problem.badSignature }
        }
        guard key.verifies(signatureBlob: signature, over: data) else { throw Problem.badSignature }
        return signature
    }
}
