// `hostbook bundle export --name NAME --sign KEY [--tag T]... [-o|--output DIR]`: writes DIR/bundle.txt
// and DIR/bundle.txt.sig, signed through the agent (BundleExporter does the work).
import HostStore
import Sessions
import System

enum BundleExport {
    static let spec = CommandSpec(
        ["bundle", "export"],
        summary: "Write a signed team bundle (bundle.txt and bundle.txt.sig) of hosts, snippets and host keys",
        usage: "--name NAME --sign KEY [--tag T]... [-o|--output DIR] [--socket PATH]",
        discussion: """
            Writes DIR/bundle.txt (hosts with the name of the key they expect, never a secret; \
            snippets; host keys as known_hosts lines) and DIR/bundle.txt.sig, an SSHSIG signature \
            in namespace hostbook-bundle made through hostbook's agent (run 'eval "$(hostbook agent start)"' \
            first), which 'ssh-keygen -Y verify -n hostbook-bundle' accepts. With --tag only hosts \
            with one of the tags. The serial is one more than that of the bundle.txt already in DIR \
            when the content changed; when nothing changed nothing is rewritten. DIR defaults to the \
            current folder: commit and push it to share it. --socket names the agent's socket as \
            'agent start --socket' does.
            """,
        options: [
            .value(.name, "NAME", "The bundle's name (its hosts get source bundle:NAME where imported)"),
            .value(.sign, "KEY", "The saved key that signs it (through the agent)"),
            .value(.tag, "T", "Only hosts with this tag (repeatable)", repeatable: true),
            .value(.output, "DIR", "The folder to write into (default: the current folder)", short: "o"),
            AgentCommands.socketOption,
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        guard let name = inv.args.value(.name) else { throw CLIError.usage("bundle export needs --name NAME") }
        guard let keyName = inv.args.value(.sign) else { throw CLIError.usage("bundle export needs --sign KEY", hint: "Name the saved key that signs the bundle ('hostbook keys list').") }
        let dir = inv.args.value(.output).map { SSHPaths.absolute($0) } ?? SSHPaths.absolute(".")
        _ = try KeysContext.existingKey(inv, named: keyName)
        let database = try HostStoreAccess.openForWriting(inv)
        let socket = try AgentSocket.path(inv)
        let outcome = try BundleExporter.run(database: database, name: name, tags: inv.args.values(.tag), keyName: keyName,
                                             folder: BundleFolder(path: dir), agentSocket: socket)
        let doc = outcome.document
        if inv.json {
            inv.printJSON(.object([
                ("bundle", .string(doc.name)),
                ("serial", .int(Int(clamping: doc.serial))),
                ("change", .string(outcome.change.rawValue)),
                ("bundle_file", .string(outcome.folder.textPath)),
                ("signature_file", .string(outcome.folder.signaturePath)),
                ("signer", .string(outcome.signer.sha256Fingerprint)),
                ("hosts", .int(doc.hosts.count)),
                ("snippets", .int(doc.snippets.count)),
                ("host_keys", .int(doc.hostKeys.count)),
            ]))
            return
        }
        let what: TerminalText = "\(raw: counted(doc.hosts.count, "host")), \(raw: counted(doc.snippets.count, "snippet")), \(raw: counted(doc.hostKeys.count, "host key"))"
        switch outcome.change {
        case .unchanged:
            inv.print("Bundle '\(doc.name)' unchanged (serial \(doc.serial), \(what)): nothing written.")
        case .resigned:
            inv.print("Bundle '\(doc.name)' unchanged (serial \(doc.serial)); signed again with key '\(keyName)': \(outcome.folder.signaturePath)")
        case .written:
            inv.print("Wrote bundle '\(doc.name)' serial \(doc.serial) (\(what)), signed with key '\(keyName)' (\(outcome.signer.sha256Fingerprint)):")
            inv.print("  \(outcome.folder.textPath)")
            inv.print("  \(outcome.folder.signaturePath)")
        }
    }

    private static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
