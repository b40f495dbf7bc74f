// `hostbook keys import-agent [SOCKET] [--key FINGERPRINT] [--name NAME]`: saves the public
// halves of the keys another agent holds (location `upstream`), so hosts can name them and
// hostbook's agents offer each only where the rules allow, signing through that agent. The
// agent is only asked to list its keys: nothing is added to it, taken from it or copied into
// the vault. Its socket is saved as an upstream (AgentUpstreams), so the standing agent and
// `hostbook ssh` find it.
import Agent
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
        let socket = try AgentUpstreamSockets.checked(given, option: "SOCKET")
        try AgentUpstreamCommands.refuseOwnSocket(socket, inv)
        let name = inv.args.value(.name)
        if let name { try KeyName.validate(name) }

        let listed: [UpstreamIdentity]
        do { listed = try UpstreamAgent(socket: socket).identities() } catch {
            throw CLIError.failure(error.message, hint: error.hint)
        }
        let certificates = listed.filter { $0.publicKey == nil }.count
        var keys = listed.compactMap { identity in identity.publicKey.map { (key: $0, comment: identity.comment) } }
        if let wanted = inv.args.value(.key) {
            keys = keys.filter { $0.key.sha256Fingerprint == wanted }
            guard !keys.isEmpty else {
                throw CLIError.notFound("the agent at \(socket.escapedForTerminal) holds no key \(wanted.escapedForTerminal)",
                                        hint: "'ssh-add -l -E sha256' with SSH_AUTH_SOCK=\(AgentCommands.shellQuoted(socket)) lists its keys.")
            }
        }
        if name != nil && keys.count != 1 {
            throw CLIError.usage("--name names one key, and the agent lists \(keys.count)", hint: "Choose the key with --key FINGERPRINT.")
        }

        let ctx = try KeysContext.open(inv)
        var skipped: [StoredKey] = []
        let imported: [StoredKey]
        do {
            var new: [NewKey] = []
            var chosen: Set<String> = []
            for (key, comment) in keys {
                if let existing = try ctx.store.find(fingerprint: key.sha256Fingerprint) {
                    skipped.append(existing)
                    continue
                }
                let keyName = try name ?? freeName(for: key, comment: comment, ctx.store, besides: chosen)
                chosen.insert(keyName.lowercased())
                new.append(NewKey(uuid: UUIDString.random(), name: keyName, publicKey: key, comment: comment, format: "agent", location: .upstream))
            }
            // The socket first: saved alone it only makes the agents ask it; the keys all or none.
            _ = try AgentUpstreams(database: ctx.database).add(socket)
            imported = try ctx.store.insert(new)
        } catch let e as HostStoreError where e.kind != .database {
            throw e
        } catch {
            throw KeysFailure.database(error, "cannot save the keys")
        }

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

    /// The key's comment (its last path component, as a file's key is named after the file)
    /// when that is a valid, free name; else `agent-` and the start of its fingerprint.
    /// `besides`: the names (lower-cased) chosen already for other keys of the same import.
    static func freeName(for key: PublicKey, comment: String, _ store: KeyStore, besides: Set<String>) throws -> String {
        func taken(_ name: String) throws -> Bool { try besides.contains(name.lowercased()) || store.find(name: name) != nil }
        let base = comment.split(separator: "/").last.map(String.init) ?? ""
        if (try? KeyName.validate(base)) != nil, try !taken(base) { return base }
        let digits = key.sha256Fingerprint.dropFirst("SHA256:".count).filter { $0.isLetter || $0.isNumber }
        var candidate = "agent-" + digits.prefix(8)
        var n = 2
        while try taken(candidate) {
            candidate = "agent-" + digits.prefix(8) + "-\(n)"
            n += 1
        }
        return candidate
    }
}
