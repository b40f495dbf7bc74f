// The `tailscale_nodes` row a Tailscale import writes beside a device's host (TailscaleSchema):
// what Tailscale said about the device, and the Tailscale tags that import wrote.

struct TailscaleNodeRow: Sendable, Equatable {
    var dnsName: String
    var os: String
    var online: Bool?
    var lastSeen: String?
    var owner: String?
    var tags: [String]

    /// FNV-1a (64-bit) over the fields and `hostname`: equal signatures mean nothing to update.
    /// A re-import keeps this instead of the stored fields (100,000 hosts are held at once).
    func signature(hostname: String) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        func mix(_ s: String?) {
            guard let s else { h = (h ^ 0xfe) &* 0x100000001b3; return }
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
            h = (h ^ 0xff) &* 0x100000001b3
        }
        mix(hostname); mix(dnsName); mix(os); mix(online.map { $0 ? "1" : "0" }); mix(lastSeen); mix(owner)
        mix(tags.joined(separator: " "))
        return h
    }

    /// The stored `tags` column: tags separated by single spaces.
    static func splitTags(_ s: String) -> [String] { s.split(separator: " ").map(String.init) }
}
