// `hostbook agent ...`: the standing ssh-agent that serves the vault's keys to plain ssh,
// scp, rsync and git (StandingAgent.swift holds its policy).
import CommandLineKit
import System
import Agent
import HostStore
import Vault
import Sessions
import KeyFormats
import Workflows

enum AgentCommands {
    static let all: [CommandSpec] = [start, stop, status, run, log, AgentApprove.spec] + AgentUpstreamCommands.all

    static let socketOption = OptionSpec.value(.socket, "PATH", "The agent's socket (default $XDG_RUNTIME_DIR/hostbook/agent.sock)")
    static let upstreamOption = OptionSpec.value(.upstream, "SOCKET",
                                                 "Also sign with the saved keys another agent at SOCKET holds (besides 'agent upstream list')",
                                                 repeatable: true)

    static let start = CommandSpec(
        ["agent", "start"], summary: "Start the standing agent in the background and print its environment",
        discussion: """
        Prints SSH_AUTH_SOCK and SSH_AGENT_PID as 'ssh-agent -s' does, for eval "$(hostbook agent \
        start)". When an agent is already running at the socket, prints the same lines and \
        starts nothing. The agent serves the vault's keys read-only: ssh-add cannot add or \
        remove keys, but 'ssh-add -x' / '-X' lock and unlock it. --upstream SOCKET (repeatable) \
        also serves the saved keys that another agent holds (saved with 'hostbook keys \
        import-agent'), signing through it; the sockets of 'agent upstream list' are always \
        asked. hostbook never adds or removes keys in an upstream agent.
        """,
        options: [socketOption, upstreamOption]
    ) { inv in
        let path = try AgentSocket.path(inv)
        let upstreams = try AgentSocket.upstreams(inv)
        if let pid = StandingAgentSocket.runningAgent(at: path) {
            if !upstreams.isEmpty {
                inv.note("hostbook: an agent is already running at \(path); --upstream applies when it starts (stop it first, or save the socket with 'hostbook agent upstream add SOCKET')")
            }
            printEnvironment(path: path, pid: pid, inv)
            return
        }
        let pid = try AgentLaunch.start(databasePath: inv.databasePath, socket: path, upstreams: upstreams, environment: inv.environment)
        printEnvironment(path: path, pid: pid, inv)
    }

    private static func printEnvironment(path: String, pid: Int32, _ inv: Invocation) {
        if inv.json {
            inv.printJSON(.object([("socket", .string(path)), ("pid", .int(Int(pid)))]))
            return
        }
        let quoted = shellQuoted(path)
        inv.print("SSH_AUTH_SOCK=\(quoted); export SSH_AUTH_SOCK;")
        inv.print("SSH_AGENT_PID=\(pid); export SSH_AGENT_PID;")
        inv.print("echo Agent pid \(pid);")
    }

    /// A path as one shell word (ShellWord, the one quoting rule).
    static func shellQuoted(_ s: String) -> String { ShellWord.quoted(s) }

    static let stop = CommandSpec(
        ["agent", "stop"], summary: "Stop the standing agent (its keys are wiped from memory)",
        discussion: "Prints 'Stopped the agent (pid N) at SOCKET'; with no agent running, says so and exits 0.",
        options: [socketOption]
    ) { inv in
        let path = try AgentSocket.path(inv)
        guard let pid = StandingAgentSocket.runningAgent(at: path) else {
            if inv.json { inv.printJSON(.object([("stopped", .bool(false)), ("pid", .null), ("socket", .string(path))])) }
            inv.note("hostbook: no agent is running at \(path)")
            return
        }
        try StandingAgentSocket.stop(pid: pid, at: path)
        if inv.json {
            inv.printJSON(.object([("stopped", .bool(true)), ("pid", .int(Int(pid))), ("socket", .string(path))]))
        } else {
            inv.print("Stopped the agent (pid \(pid)) at \(path)")
        }
    }

    static let status = CommandSpec(
        ["agent", "status"], summary: "Say whether the standing agent is running (exit 1 when not)",
        options: [socketOption]
    ) { inv in
        let path = try AgentSocket.path(inv)
        let pid = StandingAgentSocket.runningAgent(at: path)
        if inv.json {
            inv.printJSON(.object([("running", .bool(pid != nil)), ("socket", .string(path)), ("pid", .optional(pid.map { Int($0) }))]))
            if pid == nil { throw ChildExitStatus(status: 1) }
            return
        }
        guard let pid else {
            throw CLIError.failure("no agent is running at \(path.escapedForTerminal)", hint: "Start it with 'eval \"$(hostbook agent start)\"'.")
        }
        inv.print("running: pid \(pid), socket \(path)")
    }

    static let run = CommandSpec(
        ["agent", "run"], summary: "Run the standing agent in the foreground (for the systemd user unit)",
        discussion: "Stops on SIGTERM, SIGINT or SIGHUP, removing the socket and wiping the keys.",
        options: [socketOption, upstreamOption]
    ) { inv in
        // Before any thread starts, so that only the agent's wait receives them.
        let signals = StandingAgentService.blockStopSignals()
        let path = try AgentSocket.path(inv)
        let given = try AgentSocket.upstreams(inv)
        if let pid = StandingAgentSocket.runningAgent(at: path) { throw AgentRefusal.alreadyRunning(path: path, pid: pid) }
        try StandingAgentSocket.removeStale(path)
        let database = try HostStoreAccess.openForWriting(inv)
        // The log's writer has a connection of its own: one waiting for the write lock
        // must not hold the connection the keys are listed from.
        let log = try AgentLogWriter(database: inv.workspace.separateDatabase())
        // `hostbook agent approve` connects here; a path too long for it only loses that.
        let approvePath = TerminalApprover.socketPath(forAgentAt: path)
        try StandingAgentSocket.removeStale(approvePath)
        let terminal = try? TerminalApprover(socketPath: approvePath, wording: AgentApprovalWording())
        // The upstream sockets as the agent starts (an `agent upstream add` later applies
        // to the next start).
        let upstreams = try UpstreamAgentSockets.all(given: given, database: database, ownSocket: path)
        let agent = StandingAgentSetup.agent(database: database, log: log,
                                             StandingAgentParts.make(database: SharedDatabase(database), terminal: terminal, upstreams: upstreams,
                                                                     environment: inv.environment))
        let dropped = try StandingAgentService.serve(agent, at: path, log: log, terminal: terminal, signals: signals)
        if dropped > 0 { inv.note("hostbook: \(dropped) agent log entries were not written (the log's queue was full, or the database refused them)") }
    }

    static let log = CommandSpec(
        ["agent", "log"], summary: "Show the signatures the agent made and refused",
        discussion: """
        The log keeps the newest \(HostDatabase.agentLogRowsKept) entries. A refusal repeated within \
        \(Int(AgentLogWriter.refusalWindowSeconds)) seconds (the same key, destination, forwarding and \
        client executable) is logged once. A refusal whose reason the agent knows (the vault \
        is locked, ...) has it, with its fix, under the table and in --json's "reason". DECIDED \
        ("decision") says how: no-confirm, prompt, grant, denied, no-approver, timeout, or \
        namespace (a key restricted to SSHSIG namespaces asked to sign anything else); "-" for \
        any other refusal by the access rules.
        """,
        options: [.value(.limit, "N", "Only the last N entries")]
    ) { inv in
        var limit: Int?
        if let text = inv.args.value(.limit) {
            guard let n = Int(text), n > 0 else { throw CLIError.usage("--limit needs a positive number") }
            limit = n
        }
        let entries = try HostStoreAccess.openForReading(inv)?.agentLog(limit: limit) ?? []
        if inv.json {
            inv.printJSON(.array(entries.map { e in
                .object([("at", .string(e.at)), ("outcome", .string(e.signed ? "signed" : "refused")), ("key", .optional(e.keyName)),
                         ("key_fingerprint", .string(e.keyFingerprint)), ("destination", .optional(e.destination)),
                         ("destination_fingerprint", .optional(e.destinationFingerprint)), ("forwarded", .bool(e.forwarded)),
                         ("client_pid", .optional(e.clientPID)), ("client_executable", .optional(e.clientExecutable)),
                         ("reason", .optional(e.reason)), ("decision", .optional(e.decision)),
                         ("process_chain", .optional(e.processChain)), ("forwarded_through", .optional(e.forwardedThrough)),
                         ("certificate", .optional(e.certificate))])
            }))
            return
        }
        var table = Table(["TIME", "OUTCOME", "DECIDED", "KEY", "DESTINATION", "FORWARDED", "CLIENT"])
        for e in entries {
            let client = [e.clientPID.map(String.init), e.clientExecutable].compactMap { $0 }.joined(separator: " ")
            let forwarded = e.forwarded ? (e.forwardedThrough.map { "through \($0)" } ?? "yes") : "no"
            table.add([e.at, e.signed ? "signed" : "refused", e.decision ?? "-", (e.keyName ?? e.keyFingerprint) + (e.certificate.map { " (certificate \($0))" } ?? ""),
                       e.destination ?? e.destinationFingerprint ?? "-", forwarded, client])
        }
        inv.write(table.render(color: inv.useColor))
        // A refusal's reason (the vault is locked, ...) is a sentence with its fix: under
        // the table, by the entry's time, rather than a column that would crush the others.
        for e in entries where !e.signed {
            guard let reason = e.reason else { continue }
            inv.print("\(e.at) refused: \(reason)")
        }
    }
}
