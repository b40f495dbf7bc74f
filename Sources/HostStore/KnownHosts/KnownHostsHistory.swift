// The whole audit trail of host-key decisions, for `known-hosts history` without a host.
// (`events(forHost:)` in KnownHostsStore reads one host's.)

extension KnownHostsStore {
    /// Every audit event, oldest first. A scan of `host_key_events`: it runs only when a
    /// person asks for the history.
    public func allEvents() throws -> [HostKeyEvent] {
        try Self.readEvents(try connection.prepare(KnownHostsSQL.allEvents))
    }
}
