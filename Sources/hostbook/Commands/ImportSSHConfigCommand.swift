// `hostbook import-ssh-config`: hosts from an OpenSSH client configuration, read with
// ssh's rules (SSHConfig) and resolved for each concrete Host alias as `ssh -G` would
// (docs/import-ssh-config.md). The file is only read, never changed, unless
// the user's Host blocks are handed over to hostbook (SSHConfigImportTakeOver).
import HostStore
import KeyFormats
import Sessions
import SSHConfig

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
        // hostbook's own installed file (included by ~/.ssh/config) is left out and named once
        // in the notes.
        let files = SSHConfigFiles(installation: SSHConfigInstallation(home: inv.homeDirectory, environment: inv.environment),
                                   rules: .importing)
        let config: SSHConfiguration
        do {
            config = try SSHConfigLoader.load(path, access: files.access)
        } catch {
            throw failure(error, root: path)
        }
        if let root = files.notRegular.first, root.path == path {
            throw CLIError.failure("cannot read '\(PrintableText.quoted(path))': \(root.reason)",
                                   hint: "Name a configuration file to import: hostbook import-ssh-config FILE")
        }
        for skipped in files.notRegular {
            inv.warn("not reading the included file '\(PrintableText.quoted(skipped.path))': \(skipped.reason)")
        }
        let mapper = SSHConfigCandidates(files: files, environment: inv.environment)
        let candidates = mapper.candidates(config)
        var notes = SSHConfigCandidates.notes(config, files: files)
        if candidates.isEmpty { notes.append("\(path) names no concrete Host (only patterns or none at all); nothing to import") }

        let database: HostDatabase
        if dryRun {
            database = try HostStoreAccess.openForReading(inv) ?? SSHConfigImporter.emptyDatabase()
        } else {
            database = try HostStoreAccess.openForWriting(inv)
        }
        let report: SSHConfigImportReport
        do {
            report = try SSHConfigImporter(database: database).run(candidates, dryRun: dryRun, notes: notes, files: config.files)
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreErrorPresentation.cliError(e, doing: "the import failed and nothing was written")
        }
        if inv.json {
            SSHConfigImportOutput.writeJSON(report, file: path) { inv.writeJSON($0) }
        } else {
            inv.write(SSHConfigImportOutput.text(report, color: inv.useColor))
        }
        try SSHConfigImportTakeOver.run(inv, report: report, path: path, files: config.files.filter { file in !files.excluded.contains(file) && !files.notRegular.contains { $0.path == file } },
                                        requested: inv.args.flag(.takeOver))
    }

    static func failure(_ error: SSHConfigError, root: String) -> CLIError {
        let where_ = PrintableText.quoted(error.file)
        switch error.kind {
        case .unreadable where error.file == root:
            return CLIError.failure("cannot read '\(where_)': \(PrintableText.quoted(error.message.replacingPrefix("cannot be read: ")))",
                                    hint: "Name the configuration to import: hostbook import-ssh-config FILE")
        case .unreadable:
            return CLIError.failure("cannot read the included file '\(where_)': \(PrintableText.quoted(error.message.replacingPrefix("cannot be read: ")))",
                                    hint: "ssh refuses the configuration too; fix the Include or the file's permissions. Nothing was imported.")
        case .tooLarge:
            // Not broken (ssh may read it, slowly): beyond what hostbook takes in one import.
            return CLIError.rejected("'\(where_)' is too large to import: \(PrintableText.quoted(error.message))",
                                     hint: "Look for files included many times, or import parts of the configuration on their own. Nothing was imported.")
        case .includeDepth:
            return CLIError.failure("\(where_): \(PrintableText.quoted(error.message))",
                                    hint: "ssh refuses the configuration too; break the Include cycle. Nothing was imported.")
        case .syntax:
            return CLIError.failure("\(where_) line \(error.line): \(PrintableText.quoted(error.message))",
                                    hint: "ssh refuses this file too; fix the line and import again. Nothing was imported and the file was not changed.")
        }
    }
}

extension String {
    func replacingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
