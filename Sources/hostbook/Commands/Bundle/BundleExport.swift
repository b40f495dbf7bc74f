// `hostbook bundle export --name NAME --sign KEY [--tag T]... [--snippet S]... [--no-user]
// [--ca NAME [--ca-scope PATTERN]...] [-o|--output DIR [--parents]] [--allow-removals]`: writes DIR/bundle.txt and
// DIR/bundle.txt.sig, signed through the agent (BundleExporter does the work). An export
// that drops hosts, snippets or host keys of the bundle published before is asked about on
// a terminal, refused (exit 5) without one unless --allow-removals.
import CommandLineKit
import HostStore
import Sessions
import Workflows
import System

enum BundleExport {
    static let spec = CommandSpec(
        ["bundle", "export"],
        summary: "Write a signed team bundle (bundle.txt and bundle.txt.sig) of hosts, snippets and host keys",
        usage: "--name NAME --sign KEY [--tag T]... [--snippet S]... [--no-user] [--ca CA [--ca-scope PATTERN]...] [-o|--output DIR [--parents]] [--allow-removals] [--socket PATH]",
        discussion: """
            Writes DIR/bundle.txt (hosts with the name of the key they expect, never a secret; \
            snippets; host keys as known_hosts lines) and DIR/bundle.txt.sig, an SSHSIG signature \
            in namespace hostbook-bundle made through hostbook's agent (run 'eval "$(hostbook agent start)"' \
            first), which 'ssh-keygen -Y verify -n hostbook-bundle' accepts. With --tag only hosts \
            with one of the tags. Snippets are published only when chosen with --snippet. The serial \
            is one more than the highest this database exported or applied for NAME and that of the \
            bundle.txt already in DIR; when nothing changed nothing is rewritten. An export that \
            drops hosts, snippets or host keys the bundle carried before is asked about on a \
            terminal and refused without one unless --allow-removals. Hosts that came from bundle \
            NAME are published again only by a trusted signer of NAME. DIR defaults to the current \
            folder (created when missing; its parents with --parents): commit and push it to share \
            it. --socket names the agent's socket as 'agent start --socket' does. With --ca CA (a \
            certificate authority of 'hostbook ca') the bundle also carries the CA's @cert-authority \
            line for the patterns of --ca-scope (default: the bundle's hosts' hostnames, names and \
            aliases; never a bare '*'; subscribers accept a pattern beyond the bundle's hosts only \
            where they granted it with 'bundle trust NAME --ca-scope PATTERN'), every unexpired user \
            certificate the CA signed that it has not revoked (subscribers attach each to their own \
            key it certifies), and the CA's revocation list (KRL), which subscribers enforce.
            """,
        options: [
            .value(.name, "NAME", "The bundle's name (its hosts get source bundle:NAME where imported)"),
            .value(.sign, "KEY", "The saved key that signs it (through the agent)"),
            .value(.tag, "T", "Only hosts with this tag (repeatable)", repeatable: true),
            .value(.snippet, "S", "Publish this snippet (repeatable); none is published unless chosen", repeatable: true),
            .flag(.noUser, "Publish the hosts without their user: each subscriber's default applies"),
            .value(.ca, "CA", "Carry this certificate authority's host trust, user certificates and KRL"),
            .value(.caScope, "PATTERN", "A host pattern of the CA's @cert-authority line (repeatable; default: the bundle's hosts)", repeatable: true),
            .value(.output, "DIR", "The folder to write into (default: the current folder)", short: "o"),
            .flag(.parents, "Create DIR's missing parent folders too"),
            .flag(.allowRemovals, "Publish even when hosts, snippets or host keys the bundle carried are dropped"),
            AgentCommands.socketOption,
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        guard let name = inv.args.value(.name) else { throw CLIError.usage("bundle export needs --name NAME") }
        guard let keyName = inv.args.value(.sign) else { throw CLIError.usage("bundle export needs --sign KEY", hint: "Name the saved key that signs the bundle ('hostbook keys list').") }
        let dir = inv.args.value(.output).map { SSHPaths.absolute($0) } ?? SSHPaths.absolute(".")
        _ = try KeysContext.existingKey(inv.workspace, named: keyName)
        _ = try HostStoreAccess.openForWriting(inv)   // the database before the agent's folder, as ever
        let socket = try AgentSocket.path(inv)
        let authority = inv.args.value(.ca)
        let scope = inv.args.values(.caScope)
        if authority == nil, !scope.isEmpty { throw CLIError.usage("--ca-scope needs --ca CA", hint: "Name the certificate authority the scope is for ('hostbook ca list').") }
        let request = BundleExporter.Request(
            name: name, keyName: keyName,
            selection: BundleExportSelection(tags: inv.args.values(.tag), snippets: inv.args.values(.snippet), omitUsers: inv.args.flag(.noUser),
                                             certificateAuthority: authority, authorityScope: scope),
            folder: BundleFolder(path: dir), parents: inv.args.flag(.parents), allowRemovals: inv.args.flag(.allowRemovals), agentSocket: socket)
        // Removals are asked about on a terminal (never with --json or --no-input).
        let outcome = try BundleExporting.run(inv.workspace, request: request) { refusal in
            guard !inv.json, inv.canPrompt else { return false }
            return try inv.confirm("\(raw: "T" + refusal.question.dropFirst()) Publish it?", alternative: "--allow-removals")
        }
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
                ("certificates", .int(doc.certificates.count)),
                ("revocation_list", .bool(doc.revocationList != nil)),
                ("hosts_removed", .strings(outcome.removals.hosts)),
                ("snippets_removed", .strings(outcome.removals.snippets)),
                ("host_keys_removed", .int(outcome.removals.hostKeys)),
                ("republished", .bool(outcome.republished)),
            ]))
            return
        }
        var parts = [counted(doc.hosts.count, "host"), counted(doc.snippets.count, "snippet"), counted(doc.hostKeys.count, "host key")]
        if authority != nil {
            parts.append(counted(doc.certificates.count, "user certificate"))
            if doc.revocationList != nil { parts.append("a revocation list") }
        }
        let what: TerminalText = "\(raw: parts.joined(separator: ", "))"
        switch outcome.change {
        case .unchanged:
            inv.print("Bundle '\(doc.name)' unchanged (serial \(doc.serial), \(what)): nothing written.")
        case .resigned:
            inv.print("Bundle '\(doc.name)' unchanged (serial \(doc.serial)); signed again with key '\(keyName)': \(outcome.folder.signaturePath)")
        case .written:
            inv.print("Wrote bundle '\(doc.name)' serial \(doc.serial) (\(what)), signed with key '\(keyName)' (\(outcome.signer.sha256Fingerprint)):")
            inv.print("  \(outcome.folder.textPath)")
            inv.print("  \(outcome.folder.signaturePath)")
            if !outcome.removals.isEmpty { inv.print("  removed since serial before: \(BundleExportRefusal.described(outcome.removals))") }
        }
    }

    private static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
