// The trust decision for a presented host key, exactly as OpenSSH makes it (hostfile.c
// check_hostkeys_by_key_or_type + sshconnect.c check_host_key; docs/openssh-behaviour.md,
// "Host-key decisions"). A pure function: the caller supplies the entries whose host field
// matched the lookup name, in file (or store) order, and the current time.

/// What an entry contributes to a decision: its marker and key. Store rows and parsed
/// lines both provide it. `keyBlob` is the canonical blob of the plain key (for a
/// certificate entry, of the certified key): keys are compared by value, as
/// sshkey_equal_public does, never by how a file spelled them.
public struct HostKeyRecord: Sendable, Equatable {
    public let marker: KnownHostsLine.Marker
    public let keyType: String
    public let keyBlob: [UInt8]
    /// True when the entry holds a certificate: on an unmarked line it counts as an entry
    /// for the name but never holds a plain key (sshkey_equal compares the exact types).
    public let isCertificate: Bool

    public init(marker: KnownHostsLine.Marker, keyType: String, keyBlob: [UInt8], isCertificate: Bool = false) {
        self.marker = marker
        self.keyType = keyType
        self.keyBlob = keyBlob
        self.isCertificate = isCertificate
    }

    public init(_ entry: KnownHostsEntry) {
        self.init(marker: entry.marker, keyType: entry.storedType, keyBlob: entry.key.blob, isCertificate: entry.certificate != nil)
    }

    /// A record from a stored type and blob (a key or a certificate, possibly written
    /// non-canonically by an older hostbook or another program); nil when it does not parse.
    public init?(marker: KnownHostsLine.Marker, storedType: String, storedBlob: [UInt8]) {
        if storedType.hasSuffix("-cert-v01@openssh.com") {
            guard let cert = try? Certificate(blob: storedBlob) else { return nil }
            self.init(marker: marker, keyType: cert.type, keyBlob: cert.key.blob, isCertificate: true)
        } else {
            guard let key = try? PublicKey(blob: storedBlob) else { return nil }
            self.init(marker: marker, keyType: key.type, keyBlob: key.blob)
        }
    }
}

/// The key a server presents: a plain key or a host certificate.
public enum PresentedHostKey: Sendable, Equatable {
    case plain(PublicKey)
    case certificate(Certificate)

    /// The plain key (for a certificate, the certified key).
    public var plainKey: PublicKey {
        switch self {
        case .plain(let k): k
        case .certificate(let c): c.key
        }
    }

    /// The key's wire blob as the server sent it (for a certificate, the whole certificate).
    public var blob: [UInt8] {
        switch self {
        case .plain(let k): k.blob
        case .certificate(let c): c.blob
        }
    }

    /// Parses a host key as the SSH protocol carries it (a server's KEX host key, the key
    /// in `session-bind@openssh.com`): a plain key or a certificate, told apart by the type
    /// name the blob starts with, as sshkey_from_blob does.
    public init(blob: [UInt8]) throws {
        var r = SSHReader(blob)
        let type = try r.readText("host key type")
        if type.hasSuffix(Certificate.suffix) {
            self = .certificate(try Certificate(blob: blob))
        } else {
            self = .plain(try PublicKey(blob: blob))
        }
    }

    /// Parses `TYPE BASE64` (a `.pub`-style line; a comment after it is ignored).
    public static func parse(_ text: String) throws -> PresentedHostKey {
        var s = Substring(text)
        s = s.drop(while: { $0 == " " || $0 == "\t" })
        let typeEnd = s.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? s.endIndex
        let type = String(s[..<typeEnd])
        guard !type.isEmpty else { throw KeyFormatError.invalid("the key is empty; expected 'TYPE BASE64'") }
        let rest = s[typeEnd...].drop(while: { $0 == " " || $0 == "\t" })
        let b64 = rest.prefix(while: { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" })
        guard !b64.isEmpty else { throw KeyFormatError.invalid("no key data after the key type '\(type.prefix(64))'") }
        guard let blob = Base64.decode(Array(b64.utf8)) else { throw KeyFormatError.invalid("the key data is not valid base64") }
        if type.hasSuffix("-cert-v01@openssh.com") {
            let cert = try Certificate(blob: blob)
            guard cert.type == type else {
                throw KeyFormatError.invalid("key type mismatch: '\(type.prefix(64))' given but the certificate is \(cert.type)")
            }
            return .certificate(cert)
        }
        let key = try PublicKey(blob: blob)
        guard key.type == type else {
            throw KeyFormatError.invalid("key type mismatch: '\(type.prefix(64))' given but the key is \(key.type)")
        }
        return .plain(key)
    }
}

public enum HostKeyStatus: String, Sendable, Equatable {
    case trusted, unknown, changed, revoked
}

public struct HostKeyDecision: Sendable, Equatable {
    public let status: HostKeyStatus
    /// Indices (into the records given) of the entries behind the status: for `trusted`
    /// the unmarked entries (or CA entries) holding the key; for `changed` the unmarked
    /// entries holding other keys (the last is the one ssh reports as "Offending"); for
    /// `revoked` the `@revoked` entries holding the key.
    public let entries: [Int]
    /// True when a host certificate was accepted through an `@cert-authority` entry.
    public let viaCertificateAuthority: Bool
    /// When a certificate was offered and not accepted by any CA: why (ssh then falls
    /// back to the certified plain key, as this decision does).
    public let certificateProblem: String?

    public init(status: HostKeyStatus, entries: [Int], viaCertificateAuthority: Bool = false, certificateProblem: String? = nil) {
        self.status = status
        self.entries = entries
        self.viaCertificateAuthority = viaCertificateAuthority
        self.certificateProblem = certificateProblem
    }
}

public enum HostKeyPolicy {
    /// CA signature algorithms ssh 9.2 accepts by default (`CASignatureAlgorithms`):
    /// everything but `ssh-rsa` (RSA with SHA-1) and DSA.
    public static let allowedCASignatureAlgorithms: Set<String> = [
        "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", "rsa-sha2-512", "rsa-sha2-256",
    ]

    /// Decides for `presented` given the `records` that matched the lookup name.
    /// `hostName` is the bare host name (no brackets, no port) checked against a host
    /// certificate's principals; `now` is seconds since the epoch.
    public static func decide(_ presented: PresentedHostKey, records: [HostKeyRecord],
                              hostName: String, now: UInt64) -> HostKeyDecision {
        switch presented {
        case .plain(let key):
            return decidePlain(key, records: records)
        case .certificate(let cert):
            // A revoked CA key or certified key is revoked whatever else holds (hostfile.c
            // check_key_not_revoked).
            let revoked = revokedIndices(records, blobs: [cert.signatureKey.blob, cert.key.blob])
            if !revoked.isEmpty { return HostKeyDecision(status: .revoked, entries: revoked) }
            let cas = records.indices.filter { records[$0].marker == .certAuthority && records[$0].keyBlob == cert.signatureKey.blob }
            if cas.isEmpty {
                let plain = decidePlain(cert.key, records: records)
                return HostKeyDecision(status: plain.status, entries: plain.entries,
                                       certificateProblem: "no @cert-authority entry for this host holds the certificate's CA key")
            }
            if let problem = certificateProblem(cert, hostName: hostName, now: now) {
                let plain = decidePlain(cert.key, records: records)
                return HostKeyDecision(status: plain.status, entries: plain.entries, certificateProblem: problem)
            }
            return HostKeyDecision(status: .trusted, entries: cas, viaCertificateAuthority: true)
        }
    }

    /// Steps 1–4 of docs/openssh-behaviour.md, "Host-key decisions", for a plain key.
    /// (HostKeyRecordIndex holds the rule, for callers that decide many keys at once.)
    static func decidePlain(_ key: PublicKey, records: [HostKeyRecord]) -> HostKeyDecision {
        HostKeyRecordIndex(records).decidePlain(key)
    }

    static func revokedIndices(_ records: [HostKeyRecord], blobs: [[UInt8]]) -> [Int] {
        records.indices.filter { records[$0].marker == .revoked && blobs.contains(records[$0].keyBlob) }
    }

    /// Why a host certificate signed by a trusted CA is still not acceptable, or nil
    /// (sshconnect.c check_host_key → sshkey.c sshkey_cert_check_host).
    public static func certificateProblem(_ cert: Certificate, hostName: String, now: UInt64) -> String? {
        guard cert.role == .host else { return "the certificate is a user certificate, not a host certificate" }
        // Which side of the window, as sshkey_cert_check_authority says it.
        guard now >= cert.validAfter else { return "the certificate is not valid yet" }
        guard now < cert.validBefore else { return "the certificate has expired" }
        // Host principals are compared exactly, without wildcards; an empty list means any
        // host (require_principal is 0 for host certificates in ssh).
        if !cert.principals.isEmpty && !cert.principals.contains(hostName) {
            return "the certificate is not valid for the host name '\(hostName)'"
        }
        guard cert.criticalOptions.isEmpty else { return "the certificate has critical options, which host certificates must not have" }
        guard allowedCASignatureAlgorithms.contains(cert.signatureAlgorithm) else {
            return "the CA signed with \(cert.signatureAlgorithm), which ssh does not accept by default"
        }
        guard cert.verifySignature() else { return "the CA signature on the certificate does not verify" }
        return nil
    }
}
