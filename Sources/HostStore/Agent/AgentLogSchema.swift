// What the standing agent (`hostbook agent`) keeps in the database (schema v3): the
// per-host permission for a forwarded agent, and the log of every signature it made or
// refused. The log holds no secret: key and host-key fingerprints, names, the client's
// pid and executable.
//
// agent_log
//   at                      UTC, ISO 8601 with milliseconds
//   outcome                 'signed' or 'refused'
//   key_name                the saved key's name (NULL when the key is not saved any more)
//   key_fingerprint         SHA256:... of the user key
//   destination             the saved host(s) the bound host key belongs to (names
//                           joined by ", "), NULL when unbound or unknown to hostbook
//   destination_fingerprint SHA256:... of the bound host key, NULL when unbound
//   forwarded               1 when the connection came through a forwarded agent
//   client_pid / client_executable   from SO_PEERCRED and /proc/PID/exe
// Version 5:
//   reason                  why a refusal that had a key to sign with did not
//                           (the vault is locked, ...), with what fixes it; NULL otherwise
//   decision                how it was decided: prompt, grant, no-confirm, denied,
//                           no-approver, timeout, namespace; NULL for any other refusal
//                           by the access rules
//   process_chain           the client and up to 3 ancestors, one per line:
//                           `PID EXECUTABLE COMMAND-LINE` (NULL when unknown)
//   forwarded_through       the hosts an agent was forwarded through, joined by " → "
// Version 8:
//   certificate             the certificate the signature was asked for (its key id and
//                           serial, AgentUse.certificate); NULL for a plain key

enum AgentLogSchema {
    static let v3 = """
    ALTER TABLE hosts ADD COLUMN allow_agent_forwarding INTEGER NOT NULL DEFAULT 0 CHECK (allow_agent_forwarding IN (0, 1));
    CREATE TABLE agent_log (
        id                      INTEGER PRIMARY KEY,
        at                      TEXT NOT NULL,
        outcome                 TEXT NOT NULL CHECK (outcome = 'signed' OR outcome = 'refused'),
        key_name                TEXT,
        key_fingerprint         TEXT NOT NULL,
        destination             TEXT,
        destination_fingerprint TEXT,
        forwarded               INTEGER NOT NULL CHECK (forwarded IN (0, 1)),
        client_pid              INTEGER,
        client_executable       TEXT
    );

    """

    /// Version 5: why a signature was refused, when the agent knows.
    static let v5Reason = """
    ALTER TABLE agent_log ADD COLUMN reason TEXT;

    """

    /// Version 5: how the agent decided, for which process, through which hosts.
    static let v5Decision = """
    ALTER TABLE agent_log ADD COLUMN decision TEXT;
    ALTER TABLE agent_log ADD COLUMN process_chain TEXT;
    ALTER TABLE agent_log ADD COLUMN forwarded_through TEXT;

    """

    /// Version 8: the certificate a signature was for.
    static let v8Certificate = """
    ALTER TABLE agent_log ADD COLUMN certificate TEXT;

    """
}
