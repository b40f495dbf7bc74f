// The data an SSHSIG signature is made over: PROTOCOL.sshsig §3, "Signed Data" — the six
// bytes "SSHSIG", then the namespace, a reserved string, the hash algorithm and H(message).
// The one owner of that layout: SSHSignatureFile builds it to sign and to verify, and the
// agent (Agent's SignedData) recognises it in a sign request. ssh-agent.c
// parse_sshsig_request recognises the same shape; this reader also requires what sshsig.c
// (sshsig_wrap_sign) always writes: a namespace that is non-empty text, and a hash of the
// length its algorithm ("sha256" or "sha512") gives. The reader is SSHReader, which checks
// every length against what is left before it reads.

public struct SSHSIGRequest: Sendable, Equatable {
    /// MAGIC_PREAMBLE of PROTOCOL.sshsig.
    public static let preamble: [UInt8] = Array("SSHSIG".utf8)
    /// The hash algorithms sshsig.c signs with, and their digest lengths.
    static let hashLengths = ["sha256": 32, "sha512": 64]
    /// What sshsig.c signs with by default (HASHALG_DEFAULT), and hostbook always.
    public static let defaultHashAlgorithm = "sha512"

    /// What the signature is for (`git`, `file`, ...): `ssh-keygen -Y sign -n NAMESPACE`.
    public let namespace: String
    public let hashAlgorithm: String
    public let hash: [UInt8]

    /// The request for `message` in `namespace`, hashed with `hashAlgorithm` (sha512 or
    /// sha256), as sshsig.c hash_buffer and sshsig_wrap_sign make it.
    public init(namespace: String, message: [UInt8], hashAlgorithm: String = defaultHashAlgorithm) throws {
        guard !namespace.isEmpty, !namespace.utf8.contains(0) else { throw KeyFormatError.invalid("an SSHSIG namespace must be non-empty text") }
        let hash: [UInt8]
        switch hashAlgorithm {
        case "sha512": hash = Digest.sha512(message)
        case "sha256": hash = Digest.sha256(message)
        default: throw KeyFormatError.unsupported("the SSHSIG hash algorithm '\(PrintableText.quoted(hashAlgorithm))' is not sha256 or sha512")
        }
        self.init(namespace: namespace, hashAlgorithm: hashAlgorithm, hash: hash)
    }

    init(namespace: String, hashAlgorithm: String, hash: [UInt8]) {
        self.namespace = namespace
        self.hashAlgorithm = hashAlgorithm
        self.hash = hash
    }

    /// The bytes to sign (and to verify), with the reserved string empty as sshsig.c writes it.
    public var bytes: [UInt8] {
        var w = SSHWriter()
        w.writeRaw(Self.preamble)
        w.writeString(namespace)
        w.writeString([UInt8]())
        w.writeString(hashAlgorithm)
        w.writeString(hash)
        return w.bytes
    }

    /// nil when `data` is not such a request (anything after the hash refuses it, as in
    /// parse_sshsig_request).
    public static func parse(_ data: [UInt8]) -> SSHSIGRequest? {
        var r = SSHReader(data)
        guard (try? r.readBytes(preamble.count)) == preamble,
              let namespace = try? r.readText("namespace"), !namespace.isEmpty,
              (try? r.readString()) != nil,
              let algorithm = try? r.readText("hash algorithm"),
              let hash = try? r.readString(), r.isAtEnd,
              let length = hashLengths[algorithm], hash.count == length else { return nil }
        return SSHSIGRequest(namespace: namespace, hashAlgorithm: algorithm, hash: hash)
    }
}
