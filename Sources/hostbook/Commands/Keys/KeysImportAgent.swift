// `hostbook keys import-agent [SOCKET] [--key FINGERPRINT] [--name NAME]`: saves the public
// halves of the keys another agent holds (location `upstream`), so hosts can name them and
// hostbook's agents offer each only where the rules allow, signing through that agent. The
// agent is only asked to list its keys: nothing is added to it, taken from it or copied into
// the vault. Its socket is saved as an upstream (AgentUpstreams), so the standing agent and
// `hostbook ssh` find it.
import CommandLineKit
import Agent
import Workflows
import HostStore
import KeyFormats

enum KeysImportAgent {
    static let spec = CommandSpec(
        ["keys", "import-agent"], changesHostsOrKeys: true,
        summary: "Save the keys another ssh agent holds, to sign with them through it",
        usage: "[SOCKET] [--key FINGERPRINT] [--name NAME]",
        discussion: """
        SOCKET defaults to $SSH_AUTH_SOCK. Every key the agent lists is saved (its public half \
        only, located 'upstream'), named after its comment, or 'agent-' and the start of its \
        fingerprint when the comment is not a usable or free name; --key saves only the key \
        with that SHA256 fingerprint, and --name names it. Keys saved already are left as they \
        are; certificates are not saved. The socket is saved as an upstream agent ('hostbook \
        agent upstream list'), so hostbook's agent and 'hostbook ssh' sign through it: a host \
        that names such a key ('hostbook edit HOST --key NAME') is offered it, with the same \
        rules, approvals and log as a vault key. hostbook never adds or removes keys in that agent.
        """,
        positionals: [.optional("SOCKET", "The other agent's socket (default $SSH_AUTH_SOCK)", completes: .files)],
        options: [.value(.key, "FINGERPRINT", "Only the key with this SHA256 fingerprint"),
                  .value(.name, "NAME", "The name of the one key saved (with --key, or an agent holding one key)")],
        run: run)

    static func run(_ inv: Invocation) throws {
        guard let given = inv.args.positional(0) ?? inv.environment["SSH_AUTH_SOCK"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CLIError.usage("no agent socket given, and SSH_AUTH_SOCK is not set", hint: "Name the agent's socket: 'hostbook keys import-agent SOCKET'.")
        }
        let socket = try AgentSocket.checked(given, option: "SOCKET")
        try AgentUpstreamCommands.refuseOwnSocket(socket, inv)
        let name = inv.args.value(.name)
        if let name { try KeyName.validate(name) }

        let result: AgentKeyImport.Result
        do {
            result = try AgentKeyImport.run(socket: socket, wanted: inv.args.value(.key), name: name, workspace: inv.workspace)
        } catch let error as UpstreamAgentError {
            throw CLIError.failure(error.message, hint: error.hint)
        }
        let (imported, skipped, certificates) = (result.imported, result.alreadySaved, result.certificates)
        if inv.json {
            inv.printJSON(.object([("socket", .string(socket)),
                                   ("imported", .array(try imported.map { try KeyPresentation.json($0) })),
                                   ("already_saved", .array(skipped.map { .object([("name", .string($0.name)), ("fingerprint", .string($0.fingerprint))]) })),
                                   ("certificates_skipped", .int(certificates))]))
            return
        }
        for key in imported {
            inv.print("Imported key '\(key.name)' from the agent: \(try KeyPresentation.summary(key))")
        }
        for key in skipped { inv.note("The key \(key.fingerprint) is saved already as '\(key.name)'.") }
        if certificates > 0 { inv.note("\(certificates) certificate\(certificates == 1 ? " was" : "s were") not saved.") }
        if imported.isEmpty && skipped.isEmpty { inv.note("The agent at \(socket) lists no keys.") }
        inv.print("hostbook's agent signs with \(imported.count + skipped.count == 1 ? "it" : "them") through \(socket) (saved as an upstream agent);"
                  + " name one for a host with 'hostbook edit HOST --key NAME'.")
    }
}
