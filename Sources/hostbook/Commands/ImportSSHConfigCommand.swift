// `hostbook import-ssh-config`: hosts from an OpenSSH client configuration, read with
// ssh's rules (SSHConfig) and resolved for each concrete Host alias as `ssh -G` would
// (docs/import-ssh-config.md; the work is Workflows' SSHConfigImport). The file is only
// read, never changed, unless the user's Host blocks are handed over to hostbook
// (SSHConfigImportTakeOver).
import CommandLineKit
import KeyFormats
import Workflows

enum ImportSSHConfigCommand {
    static let all: [CommandSpec] = [
        CommandSpec(
            ["import-ssh-config"], changesHostsOrKeys: true,
            summary: "Import hosts from an OpenSSH client configuration (~/.ssh/config)",
            usage: "[FILE] [--dry-run] [--take-over]",
            discussion: """
            Reads FILE (default ~/.ssh/config) as ssh does: Include (relative paths are taken from
            ~/.ssh, globs allowed), Host lists and patterns, Match, key=value and quoted values, the
            first value winning. Every concrete Host name (no wildcard, no negation) becomes a host
            with the HostName, Port, User and ProxyJump that 'ssh -G NAME' resolves, Host * blocks
            included; an IdentityFile is linked to the imported key with the same public half.
            Importing again updates the hosts from the same file instead of adding them twice.
            What hostbook cannot keep (other options, Match conditions, a ProxyJump to a host it
            does not know, an IdentityFile with no imported key) is listed. A host reached through
            a ProxyCommand is skipped with the reason: hostbook does not run proxy commands and
            would connect to it directly.
            --take-over (or a yes on a terminal) then comments out, in ~/.ssh/config and the files it
            includes, your own Host blocks whose every name was imported, so that the installed
            configuration (ssh-config --install) serves those hosts: each block is marked with a
            comment naming hostbook and the date, the file's text from before is kept beside it as
            a hidden .FILE.hostbook-takeover, and 'hostbook ssh-config --uninstall --restore' gives
            it back. A block that also names a pattern or another host, or holds an Include, is
            reported and left.
            """,
            positionals: [.optional("FILE", "The configuration file (default ~/.ssh/config)", completes: .files)],
            options: [.flag(.dryRun, "Show what would change; write nothing"),
                      .flag(.takeOver, "Comment out your own Host blocks for the imported hosts (a backup is kept)")],
            run: run),
    ]

    static func run(_ inv: Invocation) throws {
        let dryRun = inv.args.flag(.dryRun)
        let path = inv.args.positional(0) ?? inv.homeDirectory + "/.ssh/config"
        let read = try SSHConfigImport.read(inv.workspace, path: path)
        for skipped in read.passedOver {
            inv.warn("not reading the included file '\(PrintableText.quoted(skipped.path))': \(skipped.reason)")
        }
        let report = try SSHConfigImport.run(inv.workspace, read, notes: read.notes.map(\.note), dryRun: dryRun)
        if inv.json {
            SSHConfigImportOutput.writeJSON(report, file: path) { inv.writeJSON($0) }
        } else {
            inv.write(SSHConfigImportOutput.text(report, color: inv.useColor))
        }
        try SSHConfigImportTakeOver.run(inv, report: report, path: path, files: read.userFiles, requested: inv.args.flag(.takeOver))
    }
}
