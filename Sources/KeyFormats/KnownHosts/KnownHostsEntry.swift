// One known_hosts line, second layer: the key blob decoded and checked against the type
// written on the line (sshkey_read: "key type mismatch"). These are the lines ssh itself
// uses for decisions; a line whose key does not decode is skipped by ssh and reported by
// hostbook's import.

public struct KnownHostsEntry: Sendable, Equatable {
    public let line: KnownHostsLine
    /// The plain public key on the line (for `@cert-authority`: the CA key).
    public let key: PublicKey

    public var marker: KnownHostsLine.Marker { line.marker }

    public init(line: KnownHostsLine) throws {
        guard let blob = Base64.decode(Array(line.keyBase64.utf8)) else {
            throw KeyFormatError.invalid("the key data is not valid base64")
        }
        if line.keyType.hasSuffix("-cert-v01@openssh.com") {
            throw KeyFormatError.invalid("a certificate is not a host key; trust its CA with an @cert-authority line")
        }
        let key = try PublicKey(blob: blob)
        guard key.type == line.keyType else {
            throw KeyFormatError.invalid("key type mismatch: the line says \(line.keyType) but the key is \(key.type)")
        }
        self.line = line
        self.key = key
    }

    /// Parses a full line into an entry; `nil` for blank and comment lines.
    public static func parse(_ text: String) throws -> KnownHostsEntry? {
        switch try KnownHostsLine.parse(text) {
        case .blank, .comment: return nil
        case .entry(let line): return try KnownHostsEntry(line: line)
        }
    }
}
