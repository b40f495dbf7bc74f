// One known_hosts line, second layer: the key blob decoded and checked against the type
// written on the line (sshkey_read: "key type mismatch"). These are the lines ssh itself
// uses for decisions; a line whose key does not decode is skipped by ssh and reported by
// hostbook's import.

public struct KnownHostsEntry: Sendable, Equatable {
    public let line: KnownHostsLine
    /// The plain public key on the line (for `@cert-authority`: the CA key; for a
    /// certificate: the certified key, which is what `@revoked` compares).
    public let key: PublicKey
    /// The certificate when the line holds one. ssh reads it as an entry of its own: on an
    /// unmarked line it makes the name known (a plain key is then CHANGED) but never holds
    /// a plain key; on an `@revoked` line it revokes the certified key.
    public let certificate: Certificate?

    public var marker: KnownHostsLine.Marker { line.marker }

    /// The blob as stored and exported: the certificate's, or the canonical key blob.
    public var storedBlob: [UInt8] { certificate?.blob ?? key.blob }
    /// The type name of `storedBlob`.
    public var storedType: String { certificate?.type ?? key.type }

    public init(line: KnownHostsLine) throws {
        guard let blob = Base64.decode(Array(line.keyBase64.utf8)) else {
            throw KeyFormatError.invalid("the key data is not valid base64")
        }
        let expected = KnownHostsLine.keyKinds[line.keyType] ?? line.keyType
        if expected.hasSuffix("-cert-v01@openssh.com") {
            let cert = try Certificate(blob: blob)
            guard cert.type == expected else {
                throw KeyFormatError.invalid("key type mismatch: the line says \(line.keyType) but the key is \(cert.type)")
            }
            self.certificate = cert
            self.key = cert.key
        } else {
            let key = try PublicKey(blob: blob)
            guard key.type == expected else {
                throw KeyFormatError.invalid("key type mismatch: the line says \(line.keyType) but the key is \(key.type)")
            }
            self.certificate = nil
            self.key = key
        }
        self.line = line
    }

    /// The entry of `line`, reusing the decoded key of `previous` when both lines spell the
    /// same type and key data (the result depends on nothing else): `ssh-keygen -H` writes
    /// one line per name of a host, all with the same key, so an import decodes and checks
    /// each key once instead of once per name.
    public init(line: KnownHostsLine, reusing previous: KnownHostsEntry?) throws {
        if let previous, previous.line.keyBase64 == line.keyBase64, previous.line.keyType == line.keyType {
            self.init(line: line, key: previous.key, certificate: previous.certificate)
        } else {
            try self.init(line: line)
        }
    }

    private init(line: KnownHostsLine, key: PublicKey, certificate: Certificate?) {
        self.line = line
        self.key = key
        self.certificate = certificate
    }

    /// Parses a full line into an entry; `nil` for blank and comment lines.
    public static func parse(_ text: String) throws -> KnownHostsEntry? {
        switch try KnownHostsLine.parse(text) {
        case .blank, .comment: return nil
        case .entry(let line): return try KnownHostsEntry(line: line)
        }
    }
}
