// `hostbook agent upstream list|add|remove`: the saved setting of the other agents whose
// keys hostbook's agents sign through (HostStore's AgentUpstreams). `keys import-agent`
// adds the socket it read; the standing agent reads the list when it starts, `hostbook ssh`
// for each session. Only the socket paths are saved.
import CommandLineKit
import Agent
import HostStore
import Workflows

enum AgentUpstreamCommands {
    static let all: [CommandSpec] = [list, add, remove]

    static let list = CommandSpec(
        ["agent", "upstream", "list"], summary: "List the saved upstream agents and whether each answers",
        discussion: """
        Each saved socket, with how many keys the agent there lists now, or why it gives none \
        (not running, no answer). The standing agent reads this list when it starts.
        """
    ) { inv in
        let states = try UpstreamAgentSockets.states(database: HostStoreAccess.openForReading(inv))
        if inv.json {
            inv.printJSON(.array(states.map { socket, state in
                switch state {
                case .success(let n): .object([("socket", .string(socket)), ("answers", .bool(true)), ("keys", .int(n)), ("problem", .null)])
                case .failure(let e): .object([("socket", .string(socket)), ("answers", .bool(false)), ("keys", .null), ("problem", .string(e.message))])
                }
            }))
            return
        }
        guard !states.isEmpty else {
            inv.note("No upstream agents saved. 'hostbook keys import-agent SOCKET' saves one with its keys.")
            return
        }
        var table = Table(["SOCKET", "STATE"])
        for (socket, state) in states {
            switch state {
            case .success(let n): table.add([socket, "\(n) key\(n == 1 ? "" : "s")"])
            case .failure(let e): table.add([socket, e.kind == .notRunning ? "not running" : "no answer"])
            }
        }
        inv.write(table.render(color: inv.useColor))
    }

    static let add = CommandSpec(
        ["agent", "upstream", "add"], summary: "Save an upstream agent's socket (its saved keys sign through it)",
        usage: "SOCKET",
        discussion: """
        Takes effect when the standing agent starts next, and for every 'hostbook ssh'. A path \
        that is not a socket now is saved all the same (that agent may start later), with a \
        warning on stderr.
        """,
        positionals: [.required("SOCKET", "The other agent's socket", completes: .files)]
    ) { inv in
        let socket = try AgentSocket.checked(inv.args.positional(0)!, option: "SOCKET")
        try refuseOwnSocket(socket, inv)
        // Saved all the same: the agent there may start later.
        if !StandingAgentSocket.isSocket(socket) {
            inv.warn("\(socket) is not a socket now; saved all the same: it is asked once an agent listens there")
        }
        let added = try UpstreamAgentSockets.add(socket, database: HostStoreAccess.openForWriting(inv))
        if inv.json {
            inv.printJSON(.object([("socket", .string(socket)), ("added", .bool(added))]))
        } else {
            inv.print(added ? "Saved the upstream agent \(socket)" : "The upstream agent \(socket) was saved already")
        }
    }

    static let remove = CommandSpec(
        ["agent", "upstream", "remove"], summary: "Forget a saved upstream agent's socket (its keys stay saved)",
        usage: "SOCKET",
        positionals: [.required("SOCKET", "A socket 'agent upstream list' shows", completes: .files)]
    ) { inv in
        let socket = try AgentSocket.checked(inv.args.positional(0)!, option: "SOCKET")
        guard try UpstreamAgentSockets.remove(socket, database: HostStoreAccess.openForWriting(inv)) else {
            throw CLIError.notFound("no upstream agent \(socket.escapedForTerminal) is saved", hint: "'hostbook agent upstream list' shows the saved ones.")
        }
        if inv.json {
            inv.printJSON(.object([("socket", .string(socket)), ("removed", .bool(true))]))
        } else {
            inv.print("Forgot the upstream agent \(socket)")
        }
    }

    /// hostbook's own agent as its upstream would ask itself in a circle.
    static func refuseOwnSocket(_ socket: String, _ inv: Invocation) throws {
        if socket == (try? StandingAgentSocket.defaultPath(environment: inv.environment)) {
            throw CLIError.rejected("\(socket.escapedForTerminal) is hostbook's own agent",
                                    hint: "Name another agent's socket (OpenSSH's ssh-agent, gpg-agent, yubikey-agent).")
        }
    }
}
