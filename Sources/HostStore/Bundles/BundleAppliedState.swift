// Which serial of each bundle was applied, and a digest of its text.
import ImportFormats
import KeyFormats

extension BundleStore {
    /// The serial of bundle `bundle` last applied, or nil when it never was.
    public func appliedSerial(bundle: String) throws -> UInt64? {
        try database.read { try applied(bundle)?.serial }
    }

    /// The SHA-256 (hex) of the canonical text last applied for bundle `bundle`, or nil.
    public func appliedDigest(bundle: String) throws -> String? {
        try database.read { try applied(bundle)?.digest }
    }

    /// Every bundle ever applied, by name.
    public func appliedBundles() throws -> [String] {
        try database.read { try connection.query("SELECT bundle FROM bundle_applied ORDER BY bundle").compactMap { $0.text(0) } }
    }

    /// The serial is stored as the bit pattern of the UInt64 (SQLite integers are signed).
    func applied(_ bundle: String) throws -> (serial: UInt64, digest: String)? {
        guard let row = try connection.query("SELECT serial, digest FROM bundle_applied WHERE bundle = ?", [.text(bundle)]).first,
              let serial = row.int(0), let digest = row.text(1) else { return nil }
        return (UInt64(bitPattern: serial), digest)
    }

    func recordApplied(_ bundle: String, serial: UInt64, digest: String) throws {
        try connection.run("INSERT OR REPLACE INTO bundle_applied (bundle, serial, digest, applied_at) VALUES (?, ?, ?, ?)",
                           [.text(bundle), .int(Int64(bitPattern: serial)), .text(digest), .text(StoreClock.timestamp())])
    }

    /// SHA-256 of the canonical text of `document`, in lower-case hex.
    static func digest(_ document: BundleDocument) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in Digest.sha256(BundleText.render(document)) {
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
