// One Tailscale device as read from either input format (docs/formats.md,
// "Tailscale JSON"), before it is mapped to a hostbook host.

/// Which of the two inputs a document was.
public enum TailscaleFormat: String, Sendable {
    /// `tailscale status --json` (`Self`, `Peer`, `User`).
    case status
    /// The API v2 device list `{"devices": [...]}`.
    case devices
}

/// Why a device is left out unless the user asks for it (docs/formats.md, "From a device to a
/// host").
public enum TailscaleExclusion: String, Sendable {
    /// `Self` in a status: the machine the status was taken on.
    case thisMachine = "this machine"
    /// `ShareeNode: true`: only in our netmap because we shared a node with its owner.
    case sharedIn = "shared in (sharee node)"
    /// A Mullvad or other location-based exit node.
    case exitNode = "location exit node"
    /// API `authorized: false`: waiting for admin approval.
    case notAuthorized = "not authorized"
    /// API `blocksIncomingConnections: true` ("shields up"): accepts no SSH.
    case blocksIncoming = "blocks incoming connections"
}

public struct TailscaleNode: Sendable, Equatable {
    /// The stable node ID (`ID` / `nodeId`, else the node key / legacy numeric id).
    public var nodeID = ""
    /// The MagicDNS name without its trailing dot; "" when the input has none.
    public var dnsName = ""
    /// The hostname the OS reported (not unique, not DNS-safe).
    public var hostName = ""
    public var os = ""
    /// Tailscale IPs, IPv4 first, in input order.
    public var addresses: [String] = []
    /// `tag:<name>` strings.
    public var tags: [String] = []
    /// Connected to the coordination server; nil when the input does not say.
    public var online: Bool?
    /// When last seen, RFC 3339 as given; nil when online, unset or the Go zero time.
    public var lastSeen: String?
    /// `"<type> <base64>"` lines from `sshHostKeys`, unparsed (parsed when trusted).
    public var sshHostKeys: [String] = []
    /// The owner's login (informational; never the SSH user); nil for tagged devices.
    public var owner: String?
    /// Status only: the `User` map key to resolve into `owner` once the map is read.
    var ownerUserID: Int64?
    /// Set when the device is skipped by default, with the reason.
    public var exclusion: TailscaleExclusion?

    public init() {}

    /// The first label of the MagicDNS name, as it appears (ASCII or punycode).
    public var dnsShortName: String {
        guard let dot = dnsName.firstIndex(of: ".") else { return dnsName }
        return String(dnsName[..<dot])
    }
}

/// Everything an input held that the importer uses.
public struct TailscaleDocument: Sendable {
    public var format: TailscaleFormat
    /// `BackendState` of a status; nil for the device list.
    public var backendState: String?
    /// Every device in input order; for a status, `Self` first.
    public var nodes: [TailscaleNode]
    /// The names and addresses the document speaks for (its MagicDNS suffix).
    public var tailnet: TailscaleTailnet

    public init(format: TailscaleFormat, backendState: String?, nodes: [TailscaleNode],
                tailnet: TailscaleTailnet = TailscaleTailnet(magicDNSSuffix: nil)) {
        self.format = format
        self.backendState = backendState
        self.nodes = nodes
        self.tailnet = tailnet
    }
}
