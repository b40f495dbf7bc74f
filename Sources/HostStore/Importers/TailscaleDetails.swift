// What Tailscale said about a host's device at the last import (the `tailscale_nodes` row
// TailscaleSchema defines and TailscaleImporter writes), for `show` and `list --json`.
import ImportFormats

/// A device's OS, online state, last-seen time and owner as the last import saw them.
/// Each is nil when Tailscale did not say (`lastSeen` is nil while the device is online).
public struct TailscaleDetails: Sendable, Equatable {
    public var os: String?
    public var online: Bool?
    /// ISO 8601 UTC (`RFC3339.utc` of what Tailscale gave; as given if that fails).
    public var lastSeen: String?
    /// The owner's Tailscale login (never the SSH user); nil for tagged devices.
    public var owner: String?

    public init(os: String?, online: Bool?, lastSeen: String?, owner: String?) {
        self.os = os
        self.online = online
        self.lastSeen = lastSeen
        self.owner = owner
    }
}

extension HostDatabase {
    static let tailscaleDetailsQuery = "SELECT host_id, os, online, last_seen, owner FROM tailscale_nodes"

    /// The details of every host imported from Tailscale, by host id. Empty on a database
    /// without the table (version 1, opened read-only).
    func tailscaleDetailsByHost() throws -> [Int64: TailscaleDetails] {
        guard try TailscaleSchema.isPresent(connection) else { return [:] }
        let s = try connection.prepare(HostDatabase.tailscaleDetailsQuery)
        var details: [Int64: TailscaleDetails] = [:]
        while try s.step() {
            if let id = s.int(at: 0) { details[id] = HostDatabase.tailscaleDetails(from: s) }
        }
        return details
    }

    /// The details of one host, or nil when it was not imported from Tailscale.
    func tailscaleDetails(hostID: Int64) throws -> TailscaleDetails? {
        guard try TailscaleSchema.isPresent(connection) else { return nil }
        let s = try connection.prepare(HostDatabase.tailscaleDetailsQuery + " WHERE host_id = ?")
        try s.bind([.int(hostID)])
        return try s.step() ? HostDatabase.tailscaleDetails(from: s) : nil
    }

    private static func tailscaleDetails(from s: Statement) -> TailscaleDetails {
        let os = s.text(at: 1)
        return TailscaleDetails(os: os?.isEmpty == true ? nil : os, online: s.int(at: 2).map { $0 != 0 },
                                lastSeen: s.text(at: 3).map { RFC3339.utc($0) ?? $0 }, owner: s.text(at: 4))
    }
}
