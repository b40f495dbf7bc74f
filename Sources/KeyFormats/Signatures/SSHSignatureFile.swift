// An SSHSIG signature file (PROTOCOL.sshsig; `ssh-keygen -Y sign` writes one, `-Y verify`
// checks it): the armour of §1 around the blob of §2.
//   -----BEGIN SSH SIGNATURE-----          first line; LF or CRLF after it
//   base64 of the blob, 70 columns          (sshbuf_dtob64 with wrap)
//   -----END SSH SIGNATURE-----            after a line break; LF after it
// The blob: byte[6] "SSHSIG", uint32 version (1), string publickey, string namespace,
// string reserved, string hash_algorithm, string signature. Reading follows sshsig.c
// sshsig_dearmor and sshsig_wrap_verify: a version above 1, trailing bytes, a namespace or
// hash algorithm that is not NUL-free text are refused; so is an RSA signature that is not
// rsa-sha2-512/256. The input is bounded (`maxLength`) before anything is decoded, and the
// blob is read with SSHReader, which never reads past the end. Every failure is a
// KeyFormatError. Verification (`verify`) rebuilds the signed data (SSHSIGRequest) with the
// namespace the caller expects and returns the key that signed; whether that key may sign
// is the caller's question.

public struct SSHSignatureFile: Sendable, Equatable {
    public static let begin = "-----BEGIN SSH SIGNATURE-----"
    public static let end = "-----END SSH SIGNATURE-----"
    /// SIG_VERSION of sshsig.c.
    public static let version: UInt32 = 1
    /// The longest file read: an RSA-16384 key and signature take about 5.5 KiB.
    public static let maxLength = 32 * 1024
    static let lineLength = 70

    /// The key that made the signature.
    public let publicKey: PublicKey
    public let namespace: String
    public let reserved: [UInt8]
    public let hashAlgorithm: String
    /// The SSH signature blob (`string algorithm`, `string signature`, ...).
    public let signature: [UInt8]

    public init(publicKey: PublicKey, namespace: String, reserved: [UInt8] = [], hashAlgorithm: String, signature: [UInt8]) {
        self.publicKey = publicKey
        self.namespace = namespace
        self.reserved = reserved
        self.hashAlgorithm = hashAlgorithm
        self.signature = signature
    }

    // MARK: Blob (PROTOCOL.sshsig §2)

    public var blob: [UInt8] {
        var w = SSHWriter()
        w.writeRaw(SSHSIGRequest.preamble)
        w.writeUInt32(Self.version)
        w.writeString(publicKey.blob)
        w.writeString(namespace)
        w.writeString(reserved)
        w.writeString(hashAlgorithm)
        w.writeString(signature)
        return w.bytes
    }

    public init(blob: [UInt8]) throws {
        var r = SSHReader(blob)
        guard r.remaining >= SSHSIGRequest.preamble.count, try r.readBytes(SSHSIGRequest.preamble.count) == SSHSIGRequest.preamble else {
            throw KeyFormatError.invalid("not an SSH signature (the blob does not start with SSHSIG)")
        }
        let version = try r.readUInt32()
        guard version <= Self.version else {
            throw KeyFormatError.unsupported("the SSH signature has version \(version); only version \(Self.version) is known")
        }
        let key = try PublicKey(blob: try r.readString())
        let namespace = try r.readText("the signature's namespace")
        let reserved = try r.readString()
        let hashAlgorithm = try r.readText("the signature's hash algorithm")
        let signature = try r.readString()
        try r.expectEnd("the SSH signature")
        self.init(publicKey: key, namespace: namespace, reserved: reserved, hashAlgorithm: hashAlgorithm, signature: signature)
    }

    // MARK: Armour (PROTOCOL.sshsig §1)

    /// The file's text, as sshsig_armor writes it.
    public var armored: [UInt8] { Self.armour(blob) }

    /// The armour around any blob (sshsig_armor).
    public static func armour(_ blob: [UInt8]) -> [UInt8] {
        let b64 = Array(Base64.encode(blob).utf8)
        var out = Array((Self.begin + "\n").utf8)
        var i = 0
        while i < b64.count {
            out += b64[i..<min(i + Self.lineLength, b64.count)]
            out.append(0x0a)
            i += Self.lineLength
        }
        out += Array((Self.end + "\n").utf8)
        return out
    }

    /// Reads a signature file. The header must start the file (LF or CRLF after it); the
    /// footer follows a line break; base64 lines may have any length (spaces, tabs and CRs
    /// in them are skipped, as b64_pton skips white space); after the footer only white space.
    public static func parse(_ text: [UInt8]) throws -> SSHSignatureFile {
        guard text.count <= maxLength else {
            throw KeyFormatError.invalid("the signature file is larger than \(maxLength / 1024) KiB")
        }
        let begin = Array(Self.begin.utf8)
        guard text.starts(with: begin) else {
            throw KeyFormatError.invalid("not an SSH signature: the file does not start with '\(Self.begin)'")
        }
        var i = begin.count
        if i < text.count, text[i] == 0x0d { i += 1 }
        guard i < text.count, text[i] == 0x0a else {
            throw KeyFormatError.invalid("the line '\(Self.begin)' is not followed by a line break")
        }
        let footer = Array(("\n" + Self.end).utf8)
        guard let footerAt = firstIndex(of: footer, in: text, from: i) else {
            throw KeyFormatError.invalid("the line '\(Self.end)' is missing (the signature is truncated)")
        }
        let after = text[(footerAt + footer.count)...]
        guard after.allSatisfy({ [0x0a, 0x0d, 0x20, 0x09].contains($0) }) else {
            throw KeyFormatError.invalid("the signature file has text after '\(Self.end)'")
        }
        let body = text[i..<footerAt].filter { ![0x0a, 0x0d, 0x20, 0x09].contains($0) }
        guard !body.isEmpty else { throw KeyFormatError.invalid("the signature is empty") }
        guard let blob = Base64.decode(body) else {
            throw KeyFormatError.invalid("the signature is not valid base64")
        }
        return try SSHSignatureFile(blob: blob)
    }

    /// Where `needle` first occurs in `haystack` at or after `start`.
    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var i = start
        while i <= haystack.count - needle.count {
            if haystack[i] == needle[0], haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    // MARK: Signing and verifying

    /// The data to hand a signer (an agent, a private key) for `message` in `namespace`.
    public static func signedData(namespace: String, message: [UInt8], hashAlgorithm: String = SSHSIGRequest.defaultHashAlgorithm) throws -> [UInt8] {
        try SSHSIGRequest(namespace: namespace, message: message, hashAlgorithm: hashAlgorithm).bytes
    }

    /// The file for a signature `signer` made over `signedData(namespace:message:)`.
    public static func wrap(signature: [UInt8], by key: PublicKey, namespace: String,
                            hashAlgorithm: String = SSHSIGRequest.defaultHashAlgorithm) -> SSHSignatureFile {
        SSHSignatureFile(publicKey: key, namespace: namespace, hashAlgorithm: hashAlgorithm, signature: signature)
    }

    /// Checks this signature over `message` for `namespace` (sshsig_wrap_verify) and returns
    /// the key that made it; throws when the namespace differs, the hash algorithm is not
    /// sha256/sha512, an RSA signature uses SHA-1, or the signature does not verify.
    public func verify(message: [UInt8], namespace expected: String) throws -> PublicKey {
        guard namespace == expected else {
            throw KeyFormatError.invalid("the signature is for namespace '\(PrintableText.quoted(namespace))', not '\(PrintableText.quoted(expected))'")
        }
        guard SSHSIGRequest.hashLengths[hashAlgorithm] != nil else {
            throw KeyFormatError.unsupported("the signature's hash algorithm '\(PrintableText.quoted(hashAlgorithm))' is not sha256 or sha512")
        }
        if case .rsa = publicKey.algorithm {
            var r = SSHReader(signature)
            let algorithm = try? r.readText()
            guard algorithm == "rsa-sha2-512" || algorithm == "rsa-sha2-256" else {
                throw KeyFormatError.unsupported("an RSA SSH signature must be rsa-sha2-512 or rsa-sha2-256")
            }
        }
        let data = try SSHSIGRequest(namespace: expected, message: message, hashAlgorithm: hashAlgorithm).bytes
        guard publicKey.verifies(signatureBlob: signature, over: data) else {
            throw KeyFormatError.invalid("the signature does not match the data (it was changed, or made over other data)")
        }
        return publicKey
    }
}
