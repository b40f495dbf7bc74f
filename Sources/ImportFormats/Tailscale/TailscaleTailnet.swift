// Which names and addresses a Tailscale document speaks for (docs/formats.md, "From a
// device to a host"). A document is the authority for its own tailnet's devices, and for
// nothing else: a peer whose DNSName is `github.com.` must not pre-trust a key for
// github.com. So a name is a MagicDNS name only when it is `<machine>.<suffix>` for the
// document's MagicDNS suffix, or for a tailnet under Tailscale's own MagicDNS domains (a
// node shared in from another tailnet keeps that tailnet's name); an address is a Tailscale
// address only when it is in the ranges Tailscale assigns, 100.64.0.0/10 and
// fd7a:115c:a1e0::/48. TailscaleImportPlanner decides with these rules.
import KeyFormats

public struct TailscaleTailnet: Sendable, Equatable {
    /// The document's MagicDNS suffix (`tail4f21c8.ts.net`), ASCII, lower-cased, without
    /// dots at either end; nil when the document gives none that is usable.
    public let magicDNSSuffix: String?

    /// Tailscale's own MagicDNS domains: every tailnet's suffix is one label under one of
    /// them (`tailXXXXXX.ts.net`; older tailnets `<tailnet>.beta.tailscale.net`).
    static let tailscaleDomains = ["ts.net", "beta.tailscale.net"]

    /// `suffix` as a document states it; one that is not a DNS name of at least two labels
    /// (a one-label suffix such as `com` would make every `<name>.com` a MagicDNS name) is
    /// dropped.
    public init(magicDNSSuffix suffix: String?) {
        var text = Punycode.asciiName(suffix ?? "").lowercased()[...]
        while text.hasPrefix(".") { text = text.dropFirst() }
        while text.hasSuffix(".") { text = text.dropLast() }
        let suffix = String(text)
        magicDNSSuffix = HostNameRule.isDNSName(suffix) && suffix.contains(".") ? suffix : nil
    }

    /// True when `fqdn` (ASCII, lower-cased, no trailing dot, as TailscaleHostMapping gives
    /// it) is one label under the document's suffix, or one label under a tailnet of
    /// Tailscale's own domains.
    public func isMagicDNSName(_ fqdn: String) -> Bool {
        guard let dot = fqdn.firstIndex(of: "."), dot != fqdn.startIndex else { return false }
        let domain = fqdn[fqdn.index(after: dot)...]
        if let magicDNSSuffix, domain == magicDNSSuffix { return true }
        guard let tailnetDot = domain.firstIndex(of: "."), tailnetDot != domain.startIndex else { return false }
        let tailscaleDomain = domain[domain.index(after: tailnetDot)...]
        return Self.tailscaleDomains.contains { tailscaleDomain == $0 }
    }

    /// True when `ip` (as TailscaleHostMapping gives it: no zone) is in 100.64.0.0/10 or
    /// fd7a:115c:a1e0::/48.
    public static func isTailscaleAddress(_ ip: String) -> Bool {
        if HostNameRule.isIPv4(ip) {
            let octets = ip.split(separator: ".").compactMap { Int($0) }
            return octets.count == 4 && octets[0] == 100 && (64...127).contains(octets[1])
        }
        guard !ip.contains("%"), let address = HostNameRule.ipv6Bytes(ip) else { return false }
        return address.prefix(6) == [0xfd, 0x7a, 0x11, 0x5c, 0xa1, 0xe0]
    }

    /// What the report says about the suffixes a name had to be under.
    public var suffixDescription: String {
        magicDNSSuffix.map { "the tailnet's MagicDNS suffix is \($0)" } ?? "the input names no MagicDNS suffix"
    }

    /// Why the key of a device is not trusted for `pattern` (a valid host name or address
    /// from HostStore's TailscaleHostMapping.patterns), or nil when it may be.
    public func whyNotTrusted(_ pattern: String) -> String? {
        if HostNameRule.isIPAddress(pattern) {
            return Self.isTailscaleAddress(pattern) ? nil : "not a Tailscale address (100.64.0.0/10 or fd7a:115c:a1e0::/48)"
        }
        return isMagicDNSName(pattern) ? nil : "not a MagicDNS name of the tailnet (\(suffixDescription))"
    }
}
