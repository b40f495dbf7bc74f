// OpenSSH certificates, *-cert-v01@openssh.com (PROTOCOL.certkeys; docs/formats.md,
// "Certificates").
//
//     string  cert type            string  key id
//     string  nonce                string  valid principals (buffer of strings)
//     ...     certified key fields uint64  valid after, uint64 valid before
//     uint64  serial               string  critical options, string extensions (name/data pairs)
//     uint32  type (1 user/2 host) string  reserved
//                                  string  signature key (the CA; never a certificate)
//                                  string  signature over every byte before it
//
// The certificate's fingerprint is its embedded key's (sshkey.c sshkey_fingerprint).

public struct Certificate: Sendable, Equatable {
    public enum Role: UInt32, Sendable { case user = 1, host = 2 }

    /// The certificate type name, e.g. `ssh-ed25519-cert-v01@openssh.com`.
    public let type: String
    /// The whole certificate blob.
    public let blob: [UInt8]
    public let nonce: [UInt8]
    /// The certified plain key (its fingerprint is the certificate's fingerprint).
    public let key: PublicKey
    public let serial: UInt64
    public let role: Role
    public let keyID: String
    /// Empty means any principal.
    public let principals: [String]
    public let validAfter: UInt64
    public let validBefore: UInt64
    public let criticalOptions: [(name: String, data: [UInt8])]
    public let extensions: [(name: String, data: [UInt8])]
    /// The CA's public key.
    public let signatureKey: PublicKey
    /// The signature algorithm name (e.g. `ssh-ed25519`, `rsa-sha2-512`).
    public let signatureAlgorithm: String
    /// The signature bytes proper (for ECDSA: mpint r ‖ mpint s).
    public let signature: [UInt8]
    /// The whole signature field: string algorithm ‖ string signature [‖ sk flags, counter].
    public let signatureBlob: [UInt8]
    /// How many leading bytes of `blob` the CA signed (everything before the signature).
    public let signedLength: Int

    public static let suffix = "-cert-v01@openssh.com"

    /// The plain key type a certificate type certifies, or nil when `type` is not a
    /// certificate type OpenSSH defines.
    public static func baseType(of type: String) -> String? {
        switch type {
        case "ssh-ed25519-cert-v01@openssh.com": PublicKey.ed25519Type
        case "ssh-rsa-cert-v01@openssh.com": PublicKey.rsaType
        case "ssh-dss-cert-v01@openssh.com": PublicKey.dsaType
        case "sk-ssh-ed25519-cert-v01@openssh.com": PublicKey.skEd25519Type
        case "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com": PublicKey.skECDSAType
        default:
            ECCurve.allCases.first { $0.keyType + suffix == type }?.keyType
        }
    }

    public init(blob: [UInt8]) throws {
        var r = SSHReader(blob)
        let type = try r.readText("certificate type")
        guard let base = Self.baseType(of: type) else {
            if type.hasSuffix(Self.suffix) {
                throw KeyFormatError.unsupported("unknown or unsupported certificate type '\(type.prefix(64))'")
            }
            throw KeyFormatError.invalid("'\(type.prefix(64))' is not a certificate type")
        }
        self.type = type
        self.blob = blob
        nonce = try r.readString()
        key = PublicKey(try PublicKey.readFields(type: base, from: &r))
        serial = try r.readUInt64()
        let roleValue = try r.readUInt32()
        guard let role = Role(rawValue: roleValue) else {
            throw KeyFormatError.invalid("the certificate type field is \(roleValue); expected 1 (user) or 2 (host)")
        }
        self.role = role
        keyID = try r.readText("certificate key id")
        principals = try Self.strings(try r.readString(), what: "valid principals")
        validAfter = try r.readUInt64()
        validBefore = try r.readUInt64()
        criticalOptions = try Self.options(try r.readString(), what: "critical options")
        extensions = try Self.options(try r.readString(), what: "extensions")
        _ = try r.readString() // reserved
        let caBlob = try r.readString()
        signedLength = r.offset
        do {
            signatureKey = try PublicKey(blob: caBlob)
        } catch let e as KeyFormatError where e.kind == .invalid && e.reason.contains("is a certificate") {
            throw KeyFormatError.invalid("the certificate's signature key is itself a certificate")
        }
        signatureBlob = try r.readString()
        try r.expectEnd("the certificate")
        var s = SSHReader(signatureBlob)
        signatureAlgorithm = try s.readText("signature algorithm")
        signature = try s.readString()
    }

    /// A buffer of strings (the principals list).
    private static func strings(_ buffer: [UInt8], what: String) throws -> [String] {
        var r = SSHReader(buffer)
        var out: [String] = []
        while !r.isAtEnd { out.append(try r.readText(what)) }
        return out
    }

    /// A buffer of (string name, string data) pairs (critical options, extensions).
    private static func options(_ buffer: [UInt8], what: String) throws -> [(name: String, data: [UInt8])] {
        var r = SSHReader(buffer)
        var out: [(name: String, data: [UInt8])] = []
        while !r.isAtEnd {
            let name = try r.readText("a name in the certificate \(what)")
            out.append((name, try r.readString()))
        }
        return out
    }

    /// The signed part of the blob: every byte before the signature field.
    public var signedBytes: ArraySlice<UInt8> { blob[..<signedLength] }

    /// `ssh-keygen -l` prints the embedded key's fingerprint for a certificate.
    public var sha256Fingerprint: String { key.sha256Fingerprint }

    /// True when the CA signature over the blob verifies with `signatureKey`.
    public func verifySignature() -> Bool {
        CertificateSignature.verify(self)
    }

    /// True when `time` (seconds since the epoch) is within validAfter ≤ time < validBefore.
    public func isValid(at time: UInt64) -> Bool { validAfter <= time && time < validBefore }

    /// A critical option's or extension's data as the string it holds (e.g. the
    /// force-command), or nil when absent or not a single string.
    public static func stringValue(_ data: [UInt8]) -> String? {
        var r = SSHReader(data)
        guard let s = try? r.readText("option value"), r.isAtEnd else { return nil }
        return s
    }

    /// `type base64[ comment]`, as in a `-cert.pub` file.
    public func line(comment: String? = nil) -> String {
        let b64 = Base64.encode(blob)
        if let comment, !comment.isEmpty { return "\(type) \(b64) \(comment)" }
        return "\(type) \(b64)"
    }

    public static func == (a: Certificate, b: Certificate) -> Bool { a.blob == b.blob }
}
