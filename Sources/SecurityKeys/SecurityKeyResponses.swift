// What a provider answers, copied out of its C structures into Swift values, and checked
// and assembled here as OpenSSH's ssh-sk.c does: a signature into the SSH signature blob,
// an enrolment into the private key record (the handle, never a secret). Pure: the fuzz
// target `security-key-response` drives these with arbitrary fields.
public import KeyFormats

/// sk_sign's answer.
public struct SecurityKeySignResponse: Sendable, Equatable {
    public var flags: UInt8
    public var counter: UInt32
    public var sigR: [UInt8]
    public var sigS: [UInt8]

    public init(flags: UInt8, counter: UInt32, sigR: [UInt8], sigS: [UInt8]) {
        self.flags = flags
        self.counter = counter
        self.sigR = sigR
        self.sigS = sigS
    }

    /// The SSH signature blob (PROTOCOL.u2f): `string type`, `string signature`,
    /// `byte flags`, `uint32 counter`; the Ed25519 signature is sig_r's 64 bytes, the ECDSA
    /// one `mpint r ‖ mpint s`.
    public func signatureBlob(for kind: SecurityKeyKind) throws(SecurityKeyError) -> [UInt8] {
        var w = SSHWriter()
        w.writeString(kind.keyType)
        switch kind {
        case .ed25519:
            guard sigR.count == 64, sigS.isEmpty else {
                throw .malformedResponse("an Ed25519 signature of \(sigR.count)+\(sigS.count) bytes, not 64")
            }
            w.writeString(sigR)
        case .ecdsa:
            guard (1...32).contains(sigR.count), (1...32).contains(sigS.count) else {
                throw .malformedResponse("an ECDSA signature with r of \(sigR.count) and s of \(sigS.count) bytes")
            }
            var inner = SSHWriter()
            inner.writeMPInt(unsigned: sigR)
            inner.writeMPInt(unsigned: sigS)
            w.writeString(inner.bytes)
        }
        w.writeByte(flags)
        w.writeUInt32(counter)
        return w.bytes
    }
}

/// sk_enroll's answer (and a resident key's): the new credential, and the attestation.
public struct SecurityKeyEnrollResponse: Sendable, Equatable {
    public var flags: UInt8
    public var publicKey: [UInt8]
    public var keyHandle: [UInt8]
    public var attestation: SecurityKeyAttestation

    public init(flags: UInt8, publicKey: [UInt8], keyHandle: [UInt8], attestation: SecurityKeyAttestation) {
        self.flags = flags
        self.publicKey = publicKey
        self.keyHandle = keyHandle
        self.attestation = attestation
    }

    /// The largest key handle taken (real ones are tens to a few hundred bytes).
    public static let maximumKeyHandle = 4096

    /// The private key record the vault keeps: public key, application, flags and handle.
    /// The public key must be a point of the curve (ECDSA, 65 bytes uncompressed) or 32
    /// bytes (Ed25519); the handle must not be empty.
    public func privateKey(kind: SecurityKeyKind, application: String, comment: String) throws(SecurityKeyError) -> PrivateKey {
        guard !keyHandle.isEmpty, keyHandle.count <= Self.maximumKeyHandle else {
            throw .malformedResponse("a key handle of \(keyHandle.count) bytes")
        }
        var blob = SSHWriter()
        blob.writeString(kind.keyType)
        switch kind {
        case .ed25519:
            guard publicKey.count == 32 else { throw .malformedResponse("an Ed25519 public key of \(publicKey.count) bytes, not 32") }
            blob.writeString(publicKey)
        case .ecdsa:
            guard publicKey.count == 65, publicKey.first == 4 else {
                throw .malformedResponse("an ECDSA public key of \(publicKey.count) bytes, not an uncompressed P-256 point")
            }
            blob.writeString(ECCurve.p256.rawValue)
            blob.writeString(publicKey)
        }
        blob.writeString(application)
        // The public key parser checks the point is on the curve.
        guard (try? PublicKey(blob: blob.bytes)) != nil else { throw .malformedResponse("a public key that is not a valid \(kind.rawValue) key") }
        let algorithm: PrivateKeyAlgorithm = switch kind {
        case .ed25519: .skEd25519(publicKey: publicKey, application: application, flags: flags, keyHandle: keyHandle, reserved: [])
        case .ecdsa: .skECDSA(curve: .p256, point: publicKey, application: application, flags: flags, keyHandle: keyHandle, reserved: [])
        }
        return PrivateKey(algorithm: algorithm, comment: comment)
    }
}

/// What an authenticator says about a new credential (kept for whoever wants to check the
/// maker), in OpenSSH's `ssh-sk-attest-v01` layout: `string "ssh-sk-attest-v01"`,
/// `string certificate`, `string signature`, `string authenticator data`, `uint32 0`,
/// `string ""`.
public struct SecurityKeyAttestation: Sendable, Equatable {
    public var certificate: [UInt8]
    public var signature: [UInt8]
    public var authenticatorData: [UInt8]

    public init(certificate: [UInt8] = [], signature: [UInt8] = [], authenticatorData: [UInt8] = []) {
        self.certificate = certificate
        self.signature = signature
        self.authenticatorData = authenticatorData
    }

    public static let magic = "ssh-sk-attest-v01"

    public var blob: [UInt8] {
        var w = SSHWriter()
        w.writeString(Self.magic)
        w.writeString(certificate)
        w.writeString(signature)
        w.writeString(authenticatorData)
        w.writeUInt32(0)
        w.writeString([UInt8]())
        return w.bytes
    }

    /// Reads the blob; an empty one (a provider that gives none) is an empty attestation.
    public static func parse(_ bytes: [UInt8]) throws(SecurityKeyError) -> SecurityKeyAttestation {
        if bytes.isEmpty { return SecurityKeyAttestation() }
        var r = SSHReader(bytes)
        do {
            guard try r.readText("the attestation format") == magic else { throw SecurityKeyError.malformedResponse("an attestation that is not \(magic)") }
            let attestation = SecurityKeyAttestation(certificate: try r.readString(), signature: try r.readString(),
                                                     authenticatorData: try r.readString())
            _ = try r.readUInt32()
            _ = try r.readString()
            guard r.isAtEnd else { throw SecurityKeyError.malformedResponse("bytes after the attestation") }
            return attestation
        } catch let error as SecurityKeyError {
            throw error
        } catch {
            throw .malformedResponse("a truncated attestation")
        }
    }
}
