// The whole audit trail of host-key decisions, for `known-hosts history` without a host.
// (`events(forHost:)` in KnownHostsStore reads one host's.)

extension KnownHostsStore {
    /// Every audit event, oldest first. A scan of `host_key_events`: it runs only when a
    /// person asks for the history.
    public func allEvents() throws -> [HostKeyEvent] {
        let s = try connection.prepare("""
            SELECT at, event, host, port, key_type, fingerprint, old_fingerprint, source
            FROM host_key_events ORDER BY id
            """)
        var events: [HostKeyEvent] = []
        while try s.step() {
            func text(_ i: Int32) -> String? { if case .text(let t) = s.column(i) { return t }; return nil }
            var port = 0
            if case .int(let p) = s.column(3) { port = Int(p) }
            events.append(HostKeyEvent(at: text(0) ?? "", event: text(1) ?? "", host: text(2) ?? "", port: port,
                                       keyType: text(4), fingerprint: text(5), oldFingerprint: text(6), source: text(7) ?? ""))
        }
        return events
    }
}
