// OpenSSH key revocation lists (PROTOCOL.krl; docs/formats.md, "Key revocation lists"),
// written for `hostbook ca krl` and read back (its tests, the fuzz target):
//
//     uint64 magic "SSHKRL\n\0"   uint32 format version 1
//     uint64 krl version          uint64 generated date      uint64 flags (0)
//     string reserved             string comment
//     then sections: byte type, string data
//       1  certificates: string CA key, string reserved, then subsections
//            0x20 serial list (uint64...), 0x21 serial range (uint64 lo, hi),
//            0x22 serial bitmap (uint64 offset, mpint bits), 0x23 key ids (string...)
//       2  explicit plain keys (string blob...)
//       3  SHA-1 / 5 SHA-256 hashes of plain key blobs (string hash..., ascending)
//
// hostbook writes one certificates section per CA (its serials as a sorted list, its key
// ids sorted), and one SHA-256 section for the revoked plain keys (a certificate of a
// revoked key is revoked too: sshd hashes the certified key). Signature sections and
// extensions are not written; the reader refuses what it does not know, as OpenSSH does
// for critical parts, and skips non-critical extensions.

public struct KeyRevocationList: Sendable, Equatable {
    public struct CertificateRevocations: Sendable, Equatable {
        /// The CA's public key blob; empty means any CA.
        public var caKey: [UInt8]
        public var serials: [UInt64]
        public var serialRanges: [ClosedRange<UInt64>]
        public var keyIDs: [String]

        public init(caKey: [UInt8], serials: [UInt64] = [], serialRanges: [ClosedRange<UInt64>] = [], keyIDs: [String] = []) {
            self.caKey = caKey
            self.serials = serials
            self.serialRanges = serialRanges
            self.keyIDs = keyIDs
        }
    }

    static let magic: [UInt8] = Array("SSHKRL\n\0".utf8)
    static let formatVersion: UInt32 = 1

    public var version: UInt64
    public var generatedDate: UInt64
    public var comment: String
    public var certificates: [CertificateRevocations]
    /// Plain key blobs revoked outright.
    public var explicitKeys: [[UInt8]]
    public var sha1Hashes: [[UInt8]]
    /// SHA-256 hashes of plain key blobs.
    public var sha256Hashes: [[UInt8]]

    public init(version: UInt64, generatedDate: UInt64, comment: String = "", certificates: [CertificateRevocations] = [],
                explicitKeys: [[UInt8]] = [], sha1Hashes: [[UInt8]] = [], sha256Hashes: [[UInt8]] = []) {
        self.version = version
        self.generatedDate = generatedDate
        self.comment = comment
        self.certificates = certificates
        self.explicitKeys = explicitKeys
        self.sha1Hashes = sha1Hashes
        self.sha256Hashes = sha256Hashes
    }

    // MARK: Writing

    public func encoded() -> [UInt8] {
        var w = SSHWriter()
        w.writeRaw(Self.magic)
        w.writeUInt32(Self.formatVersion)
        w.writeUInt64(version)
        w.writeUInt64(generatedDate)
        w.writeUInt64(0)
        w.writeString([UInt8]())
        w.writeString(comment)
        for ca in certificates {
            var section = SSHWriter()
            section.writeString(ca.caKey)
            section.writeString([UInt8]())
            let serials = Array(Set(ca.serials)).sorted()
            if !serials.isEmpty {
                var list = SSHWriter()
                for s in serials { list.writeUInt64(s) }
                section.writeByte(0x20)
                section.writeString(list.bytes)
            }
            for range in ca.serialRanges {
                var r = SSHWriter()
                r.writeUInt64(range.lowerBound)
                r.writeUInt64(range.upperBound)
                section.writeByte(0x21)
                section.writeString(r.bytes)
            }
            let ids = Array(Set(ca.keyIDs)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            if !ids.isEmpty {
                var list = SSHWriter()
                for id in ids { list.writeString(id) }
                section.writeByte(0x23)
                section.writeString(list.bytes)
            }
            w.writeByte(1)
            w.writeString(section.bytes)
        }
        Self.writeBlobs(2, explicitKeys, sorted: false, into: &w)
        Self.writeBlobs(3, sha1Hashes, sorted: true, into: &w)
        Self.writeBlobs(5, sha256Hashes, sorted: true, into: &w)
        return w.bytes
    }

    private static func writeBlobs(_ type: UInt8, _ blobs: [[UInt8]], sorted: Bool, into w: inout SSHWriter) {
        guard !blobs.isEmpty else { return }
        var unique: [[UInt8]] = []
        for b in blobs where !unique.contains(b) { unique.append(b) }
        if sorted { unique.sort { $0.lexicographicallyPrecedes($1) } }
        var section = SSHWriter()
        for b in unique { section.writeString(b) }
        w.writeByte(type)
        w.writeString(section.bytes)
    }

    // MARK: Reading

    /// Reads a KRL; refuses a wrong magic or version, an unknown section, a signature
    /// section, a critical extension, and any trailing bytes in a section.
    public init(bytes: [UInt8]) throws {
        var r = SSHReader(bytes)
        guard bytes.count >= Self.magic.count, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw KeyFormatError.invalid("not an OpenSSH key revocation list (no SSHKRL header)")
        }
        _ = try r.readBytes(Self.magic.count)
        let format = try r.readUInt32()
        guard format == Self.formatVersion else {
            throw KeyFormatError.unsupported("KRL format version \(format) is not supported (only 1)")
        }
        version = try r.readUInt64()
        generatedDate = try r.readUInt64()
        _ = try r.readUInt64() // flags
        _ = try r.readString() // reserved
        comment = try r.readText("KRL comment")
        certificates = []
        explicitKeys = []
        sha1Hashes = []
        sha256Hashes = []
        while !r.isAtEnd {
            let type = try r.readByte()
            var section = SSHReader(try r.readString())
            switch type {
            case 1: certificates.append(try Self.readCertificates(&section))
            case 2: explicitKeys += try Self.readBlobs(&section, length: nil)
            case 3: sha1Hashes += try Self.readBlobs(&section, length: 20)
            case 5: sha256Hashes += try Self.readBlobs(&section, length: 32)
            case 255: try Self.readExtension(&section)
            case 4: throw KeyFormatError.unsupported("signed KRLs are not supported")
            default: throw KeyFormatError.invalid("unknown KRL section type \(type)")
            }
            try section.expectEnd("a KRL section")
        }
    }

    private static func readCertificates(_ r: inout SSHReader) throws -> CertificateRevocations {
        let caKey = try r.readString()
        if !caKey.isEmpty { _ = try PublicKey(blob: caKey) }
        _ = try r.readString() // reserved
        var out = CertificateRevocations(caKey: caKey)
        while !r.isAtEnd {
            let type = try r.readByte()
            var sub = SSHReader(try r.readString())
            switch type {
            case 0x20:
                while !sub.isAtEnd { out.serials.append(try sub.readUInt64()) }
            case 0x21:
                let lo = try sub.readUInt64(), hi = try sub.readUInt64()
                guard lo != 0, lo <= hi else { throw KeyFormatError.invalid("the KRL serial range \(lo)-\(hi) is empty or starts at 0") }
                out.serialRanges.append(lo...hi)
            case 0x22:
                let offset = try sub.readUInt64()
                let bits = try sub.readString()
                guard bits.count <= 1 << 16 else { throw KeyFormatError.invalid("the KRL serial bitmap is too large") }
                for (i, byte) in bits.reversed().enumerated() {
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let (serial, overflow) = offset.addingReportingOverflow(UInt64(i * 8 + bit))
                        guard !overflow else { throw KeyFormatError.invalid("the KRL serial bitmap wraps") }
                        out.serials.append(serial)
                    }
                }
            case 0x23:
                guard !sub.isAtEnd else { throw KeyFormatError.invalid("a KRL key id section is empty") }
                while !sub.isAtEnd { out.keyIDs.append(try sub.readText("KRL key id")) }
            case 0x39:
                try readExtension(&sub)
            default:
                throw KeyFormatError.invalid("unknown KRL certificate section type \(type)")
            }
            try sub.expectEnd("a KRL certificate section")
        }
        return out
    }

    private static func readBlobs(_ r: inout SSHReader, length: Int?) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        while !r.isAtEnd {
            let blob = try r.readString()
            if let length, blob.count != length { throw KeyFormatError.invalid("a KRL hash is \(blob.count) bytes, not \(length)") }
            out.append(blob)
        }
        return out
    }

    private static func readExtension(_ r: inout SSHReader) throws {
        let name = try r.readText("KRL extension name")
        let critical = try r.readBool()
        _ = try r.readString()
        if critical { throw KeyFormatError.unsupported("the KRL has a critical extension '\(name.prefix(64))'") }
    }

    // MARK: Checking

    /// Why `key` (a plain key), or a certificate of it, is revoked here; nil when it is not.
    /// For a certificate pass `certificate`; its certified key is checked too.
    public func revocation(of key: PublicKey, certificate: Certificate? = nil) -> Revocation? {
        if explicitKeys.contains(key.blob) { return .key }
        if sha256Hashes.contains(Digest.sha256(key.blob)) { return .key }
        if sha1Hashes.contains(Digest.sha1(key.blob)) { return .key }
        guard let certificate else { return nil }
        for ca in certificates where ca.caKey.isEmpty || ca.caKey == certificate.signatureKey.blob {
            if ca.serials.contains(certificate.serial) || ca.serialRanges.contains(where: { $0.contains(certificate.serial) }) {
                return .serial(certificate.serial)
            }
            if ca.keyIDs.contains(certificate.keyID) { return .keyID(certificate.keyID) }
        }
        if revocation(of: certificate.signatureKey) != nil { return .certificateAuthority }
        return nil
    }

    public enum Revocation: Sendable, Equatable {
        case key
        case serial(UInt64)
        case keyID(String)
        case certificateAuthority
    }
}
