// The agent's log (AgentLogSchema): one row per signature made or refused. Written by the
// standing agent (through AgentLogWriter), read by `hostbook agent log`. Only the newest
// rows are kept: every write drops those beyond the bound, by row id (the primary key),
// so pruning costs an index seek, not a count.

public struct AgentLogEntry: Sendable, Equatable {
    public var at: String
    public var signed: Bool
    public var keyName: String?
    public var keyFingerprint: String
    public var destination: String?
    public var destinationFingerprint: String?
    public var forwarded: Bool
    public var clientPID: Int?
    public var clientExecutable: String?
    /// Why a refusal happened, when the agent knows (the vault is locked, ...).
    public var reason: String?
    /// How it was decided: prompt, grant, no-confirm, denied, no-approver, timeout,
    /// namespace; nil for any other refusal by the access rules (or a row written before
    /// schema version 5).
    public var decision: String? = nil
    /// The client and up to 3 ancestors, one a line: `pid PID EXECUTABLE: COMMAND LINE`.
    public var processChain: String? = nil
    /// The hosts the agent was forwarded through, joined by " → ".
    public var forwardedThrough: String? = nil
    /// The certificate the signature was asked for (AgentUse.certificate); nil for a plain key.
    public var certificate: String? = nil

    public init(at: String, signed: Bool, keyName: String?, keyFingerprint: String, destination: String?,
                destinationFingerprint: String?, forwarded: Bool, clientPID: Int?, clientExecutable: String?, reason: String? = nil) {
        self.at = at
        self.signed = signed
        self.keyName = keyName
        self.keyFingerprint = keyFingerprint
        self.destination = destination
        self.destinationFingerprint = destinationFingerprint
        self.forwarded = forwarded
        self.clientPID = clientPID
        self.clientExecutable = clientExecutable
        self.reason = reason
    }
}

extension HostDatabase {
    /// How many rows the agent's log keeps: the newest.
    public static let agentLogRowsKept = 10_000

    /// Appends one entry; `at` empty means now.
    public func recordAgentUse(_ e: AgentLogEntry) throws {
        try recordAgentUses([e])
    }

    /// Appends `entries` in one transaction (`at` empty means now) and drops the rows
    /// older than the newest `keepingNewest`.
    public func recordAgentUses(_ entries: [AgentLogEntry], keepingNewest: Int = agentLogRowsKept) throws {
        guard !entries.isEmpty else { return }
        _ = try write {
            for e in entries {
                try connection.run("""
                    INSERT INTO agent_log(at, outcome, key_name, key_fingerprint, destination, destination_fingerprint,
                                          forwarded, client_pid, client_executable, reason, decision, process_chain, forwarded_through, certificate)
                    VALUES (CASE WHEN ?1 = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ','now') ELSE ?1 END, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
                    """, [.text(e.at), .text(e.signed ? "signed" : "refused"), e.keyName.map { .text($0) } ?? .null, .text(e.keyFingerprint),
                          e.destination.map { .text($0) } ?? .null, e.destinationFingerprint.map { .text($0) } ?? .null,
                          .int(e.forwarded ? 1 : 0), e.clientPID.map { .int(Int64($0)) } ?? .null,
                          e.clientExecutable.map { .text($0) } ?? .null, e.reason.map { .text($0) } ?? .null,
                          e.decision.map { .text($0) } ?? .null,
                          e.processChain.map { .text($0) } ?? .null, e.forwardedThrough.map { .text($0) } ?? .null,
                          e.certificate.map { .text($0) } ?? .null])
            }
            // Row ids only grow (the highest + 1), so the newest rows are the last ids.
            try connection.run("DELETE FROM agent_log WHERE id <= ?", [.int(connection.lastInsertRowID - Int64(max(0, keepingNewest)))])
        }
    }

    /// The entries, oldest first (the last `limit` when given).
    public func agentLog(limit: Int? = nil) throws -> [AgentLogEntry] {
        try read {
            let rows = try connection.query("""
                SELECT at, outcome, key_name, key_fingerprint, destination, destination_fingerprint, forwarded, client_pid, client_executable,
                       reason, decision, process_chain, forwarded_through, certificate
                FROM (SELECT * FROM agent_log ORDER BY id DESC LIMIT ?1) ORDER BY id
                """, [.int(Int64(limit ?? -1))])
            return rows.map { r in
                var e = AgentLogEntry(at: r.text(0) ?? "", signed: r.text(1) == "signed", keyName: r.text(2), keyFingerprint: r.text(3) ?? "",
                              destination: r.text(4), destinationFingerprint: r.text(5), forwarded: (r.int(6) ?? 0) != 0,
                              clientPID: r.int(7).map { Int($0) }, clientExecutable: r.text(8), reason: r.text(9))
                e.decision = r.text(10)
                e.processChain = r.text(11)
                e.forwardedThrough = r.text(12)
                e.certificate = r.text(13)
                return e
            }
        }
    }
}
