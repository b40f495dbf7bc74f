// What the token is asked to sign for an SSH signature, and the SSH signature blob made of
// its answer (ssh-pkcs11.c's rsa and ecdsa methods; PROTOCOL.agent's sign flags):
//   rsa-sha2-256/512  CKM_RSA_PKCS over DigestInfo(SHA-256/512(data)); the answer is as long
//                     as the modulus (a shorter one is left-padded, as OpenSSH does)
//   ecdsa-sha2-*      CKM_ECDSA over SHA-256/384/512(data) by curve; the answer is r ‖ s, each
//                     as long as the curve's order
//   ssh-ed25519       CKM_EDDSA over the data itself; the answer is 64 bytes
// Pure: the fuzz target `token-response` runs `blob` on arbitrary answers.
public import KeyFormats

public struct TokenSignature: Sendable, Equatable {
    public enum Mechanism: Sendable, Equatable { case rsaPKCS, ecdsa, eddsa }

    /// The SSH algorithm name of the signature.
    public let algorithm: String
    public let mechanism: Mechanism
    /// The bytes handed to C_Sign.
    public let input: [UInt8]

    /// ssh-agent's sign flags (PROTOCOL.agent).
    public static let rsaSHA256Flag: UInt32 = 2
    public static let rsaSHA512Flag: UInt32 = 4

    /// DER prefixes of DigestInfo for SHA-256 and SHA-512 (RFC 8017, 9.2 note 1).
    static let sha256DigestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
    static let sha512DigestInfo: [UInt8] = [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]

    /// The request for signing `data` with `key` under the agent's `flags`. An RSA key asked
    /// for no SHA-2 flag signs rsa-sha2-512 is NOT done: ssh-rsa (SHA-1) is refused.
    public init(key: PublicKey, data: [UInt8], flags: UInt32) throws(TokenError) {
        switch key.algorithm {
        case .rsa:
            if flags & Self.rsaSHA512Flag != 0 {
                algorithm = "rsa-sha2-512"; input = Self.sha512DigestInfo + Digest.sha512(data)
            } else if flags & Self.rsaSHA256Flag != 0 {
                algorithm = "rsa-sha2-256"; input = Self.sha256DigestInfo + Digest.sha256(data)
            } else {
                throw .unsupportedAlgorithm("ssh-rsa")
            }
            mechanism = .rsaPKCS
        case .ecdsa(let curve, _):
            algorithm = curve.keyType
            switch curve {
            case .p256: input = Digest.sha256(data)
            case .p384: input = Digest.sha384(data)
            case .p521: input = Digest.sha512(data)
            }
            mechanism = .ecdsa
        case .ed25519:
            algorithm = PublicKey.ed25519Type; input = data; mechanism = .eddsa
        default:
            throw .unsupportedKey(key.type)
        }
    }

    /// The longest answer C_Sign may give for `key` (the buffer handed to it).
    public static func maxLength(for key: PublicKey) -> Int {
        switch key.algorithm {
        case .rsa(_, let n): n.count
        case .ecdsa(let curve, _): 2 * curve.scalarLength
        default: 64
        }
    }

    /// The SSH signature blob made of the module's answer; refuses an answer of the wrong length.
    public func blob(answer: [UInt8], key: PublicKey) throws(TokenError) -> [UInt8] {
        var w = SSHWriter()
        w.writeString(algorithm)
        switch key.algorithm {
        case .rsa(_, let n):
            guard !answer.isEmpty, answer.count <= n.count else { throw .malformed("an RSA signature of \(answer.count) bytes for a \(n.count)-byte modulus") }
            w.writeString([UInt8](repeating: 0, count: n.count - answer.count) + answer)
        case .ecdsa(let curve, _):
            let half = curve.scalarLength
            guard answer.count == 2 * half else { throw .malformed("an ECDSA signature of \(answer.count) bytes where \(2 * half) were expected") }
            var inner = SSHWriter()
            inner.writeMPInt(unsigned: answer[0..<half].drop(while: { $0 == 0 }))
            inner.writeMPInt(unsigned: answer[half...].drop(while: { $0 == 0 }))
            w.writeString(inner.bytes)
        case .ed25519:
            guard answer.count == 64 else { throw .malformed("an Ed25519 signature of \(answer.count) bytes") }
            w.writeString(answer)
        default:
            throw .unsupportedKey(key.type)
        }
        return w.bytes
    }
}
