// From a Tailscale device to the hostbook host it becomes (docs/formats.md,
// "From a device to a host"): alias, address, tags and the names its host keys are pinned for.
import ImportFormats
import KeyFormats

public struct TailscaleHostMapping: Sendable, Equatable {
    /// The alias: the first label of the MagicDNS name, lower-cased (punycode when the label
    /// is not ASCII); else the sanitised OS hostname; else "node-" + the sanitised node ID.
    public let alias: String
    /// What the device says to dial: the MagicDNS name without its trailing dot (ASCII),
    /// else the first IPv4, else the first IPv6. "" when the device has no address at all.
    /// TailscaleImportPlanner dials it only when it is the tailnet's.
    public let address: String
    /// The full MagicDNS name in ASCII, lower-cased; "" when there is none.
    public let fqdn: String
    /// Names a host key is to be trusted for: the FQDN and each IP the device lists
    /// (docs/formats.md, "From a device to a host"). TailscaleImportPlanner keeps only the
    /// tailnet's (TailscaleTailnet).
    public let patterns: [String]

    public init(_ node: TailscaleNode) {
        let fqdn = Self.fqdn(node)
        self.fqdn = fqdn
        self.alias = Self.alias(fqdn: fqdn, node)
        let ips = node.addresses.map { $0.lowercased() }.filter(Self.isIPAddress)
        let ipv4 = ips.first { !$0.contains(":") }
        let ipv6 = ips.first { $0.contains(":") }
        self.address = !fqdn.isEmpty ? fqdn : (ipv4 ?? ipv6 ?? "")
        var patterns: [String] = []
        var seen: Set<String> = []
        if !fqdn.isEmpty { patterns.append(fqdn); seen.insert(fqdn) }
        for ip in ips where seen.insert(ip).inserted { patterns.append(ip) }
        self.patterns = patterns
    }

    /// A cheap superset of `patterns` for a first pass over many devices: the same strings
    /// for the names that are valid, and the others unchecked (no DNS or IP validation).
    static func patternCandidates(_ node: TailscaleNode) -> [String] {
        let ascii = node.dnsName.utf8.allSatisfy { $0 < 0x80 }
        var out = [(ascii ? node.dnsName : Punycode.asciiName(node.dnsName)).lowercased()]
        for address in node.addresses { out.append(address.lowercased()) }
        return out
    }

    /// The alias alone (see `alias`), for a first pass over many devices.
    public static func alias(_ node: TailscaleNode) -> String { alias(fqdn: fqdn(node), node) }

    /// The MagicDNS name in ASCII, lower-cased, when it is a valid DNS name; else "". Input
    /// never puts wildcards, commas or spaces into a known_hosts pattern or a hostname.
    private static func fqdn(_ node: TailscaleNode) -> String {
        let fqdn = Punycode.asciiName(node.dnsName).lowercased()
        return HostNameRule.isDNSName(fqdn) ? fqdn : ""
    }

    private static func alias(fqdn: String, _ node: TailscaleNode) -> String {
        var alias = ""
        if !fqdn.isEmpty {
            alias = String(fqdn.prefix(while: { $0 != "." }))
        }
        if alias.isEmpty || !HostValidation.isName(alias) {
            alias = HostNameSanitizer.label(from: node.hostName)
        }
        if alias.isEmpty {
            alias = "node-" + HostNameSanitizer.label(from: node.nodeID)
        }
        return alias
    }

    /// An IPv4 or IPv6 address as hostbook's host validation reads them, without a zone.
    static func isIPAddress(_ s: String) -> Bool { HostNameRule.isIPAddress(s) }

    /// The alias for display: punycode labels decoded ("xn--bcher-nas-q9a" → "bücher-nas").
    public var displayAlias: String { Punycode.unicodeLabel(alias) }
}
