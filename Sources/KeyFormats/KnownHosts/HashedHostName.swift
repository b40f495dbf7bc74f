// Hashed host names `|1|base64(salt)|base64(HMAC-SHA1(salt, name))` (hostfile.c host_hash,
// docs/formats.md, "Hashed names"). The salt is 20 bytes; the message is the exact lookup string
// (already lower-cased and bracketed with the port). ssh compares the whole field as a
// string after re-encoding, so only the canonical base64 spelling can ever match: a field
// that does not re-encode to itself is refused here ("bad host hash").

public struct HashedHostName: Hashable, Sendable {
    public static let magic = "|1|"
    public static let saltLength = 20

    public let salt: [UInt8]
    /// HMAC-SHA1(key: salt, message: name), 20 bytes.
    public let mac: [UInt8]

    public init(salt: [UInt8], mac: [UInt8]) {
        self.salt = salt
        self.mac = mac
    }

    /// Hashes `name` (used verbatim: callers pass a lookup string) with `salt`.
    public init(hashing name: String, salt: [UInt8]) {
        self.salt = salt
        self.mac = Digest.hmac(.sha1, key: salt, message: Array(name.utf8))
    }

    /// Parses a `|1|salt|mac` host field; nil when it is not one (OpenSSH: "bad host hash").
    public init?(field: String) {
        let b = Array(field.utf8)
        guard b.count > 3, b[0] == UInt8(ascii: "|"), b[1] == UInt8(ascii: "1"), b[2] == UInt8(ascii: "|") else { return nil }
        let rest = b[3...]
        guard let bar = rest.firstIndex(of: UInt8(ascii: "|")) else { return nil }
        // Base64.decode with padding required accepts only the canonical spelling (the
        // alphabet, the exact padding, zero leftover bits), so what it accepts re-encodes
        // to itself: the field equals `text` without building it again.
        guard let salt = Base64.decode(rest[..<bar], requirePadding: true), salt.count == Self.saltLength,
              let mac = Base64.decode(rest[(bar + 1)...], requirePadding: true), mac.count == 20 else { return nil }
        self.salt = salt
        self.mac = mac
    }

    /// True when a field starts like a hashed name (then it is matched only as one).
    public static func looksHashed(_ field: String) -> Bool { field.utf8.first == UInt8(ascii: "|") }

    /// The host field as it is written in known_hosts.
    public var text: String { Self.magic + Base64.encode(salt) + "|" + Base64.encode(mac) }

    /// True when this field is the hash of `name` (the exact lookup string).
    public func matches(_ name: String) -> Bool {
        Digest.hmac(.sha1, key: salt, message: Array(name.utf8)) == mac
    }
}
