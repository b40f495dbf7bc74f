// The files of a take-over (`import-ssh-config --take-over`; what is commented out:
// Sessions' SSHConfigTakeOver) and of its undoing (`ssh-config --uninstall --restore`).
//
// - Each file changed keeps its text from before the first take-over as .FILE.hostbook-takeover
//   beside it (0600); a later take-over of the same file keeps that backup, and is refused
//   when the file no longer matches it less the blocks taken over (the user edited it since).
// - A file that is a symbolic link stays one: the end of its chain is rewritten
//   (AtomicFile.linkTarget), with its mode. Every file is checked (readable, a regular file,
//   its folder writable) before any is written, and each is written whole (AtomicFile).
// - Restoring gives each file its backup back, byte for byte, when the file is what the
//   take-over left (less hostbook's Include line, which the install may have put on top of
//   ~/.ssh/config before or after it, and which uninstalling removes); otherwise nothing is
//   restored and the command says which file changed.
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import SSHConfig
import Sessions
import System

struct SSHConfigTakeOverFiles {
    let installed: InstalledSSHConfig

    /// `.NAME.hostbook-takeover` in the file's folder: hidden, so that no `Include conf.d/*`
    /// (glob(3) matches a leading dot only when the pattern has one) reads the old blocks back.
    static func backup(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".hostbook-takeover" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".hostbook-takeover"
    }

    /// One file to rewrite: as named (`path`), the file written (`target`, the end of its links).
    struct FileChange {
        let path: String
        let target: String
        let plan: SSHConfigTakeOver.Plan
        let current: [UInt8]
        let hasBackup: Bool
    }

    /// What `ssh-config --install` says, once the Include line is in place, about the saved
    /// hosts it left to the user's own Host blocks (`leftOut`): the exact lines a take-over
    /// comments out, with the command, and the blocks it would leave, with why.
    func hints(leftOut: [String]) -> [TerminalText] {
        guard !leftOut.isEmpty, let changes = try? plan(files: userConfigFiles(), imported: Set(leftOut), date: Self.today(), checking: false) else { return [] }
        var out: [TerminalText] = []
        let taking = changes.filter { !$0.plan.taken.isEmpty }
        if !taking.isEmpty {
            let places = taking.map { "'\($0.path.escapedForTerminal)' \(SSHConfigImportTakeOver.linesText($0.plan.taken.map(\.line)))" }
            out.append("your own Host blocks at \(raw: places.joined(separator: ", ")) keep hostbook's configuration from serving their hosts; "
                       + "'hostbook import-ssh-config --take-over' comments them out (keeping a backup; 'hostbook ssh-config --uninstall --restore' undoes it)")
        }
        for change in changes {
            for left in change.plan.left {
                out.append("your Host block at '\(change.path)' line \(left.line) keeps its hosts from hostbook's configuration and is one to edit by hand: \(left.reason)")
            }
        }
        return out
    }

    /// ~/.ssh/config and the files it includes, in ssh's order (hostbook's own left out).
    func userConfigFiles() -> [String] {
        var files = [installed.userConfig]
        let reader = SSHConfigFiles(installation: installed.layout, rules: .definedHosts)
        if let config = try? SSHConfigLoader.load(installed.userConfig, access: reader.access) {
            files += config.files.filter { $0 != installed.userConfig && !reader.excluded.contains($0) }
        }
        return files
    }

    /// Today (UTC), as the marker names it: YYYY-MM-DD.
    static func today() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }

    /// The take-over of every file in `files` (ssh's reading order) for the names `imported`.
    /// `checking`: whether a file's backup and folder are checked (false for a hint).
    func plan(files: [String], imported: Set<String>, date: String, checking: Bool = true) throws -> [FileChange] {
        var out: [FileChange] = []
        for path in files {
            let target = try Self.target(path)
            guard let current = try InstalledSSHConfig.read(target) else { continue }
            let plan: SSHConfigTakeOver.Plan
            do { plan = try SSHConfigTakeOver.plan(file: path, bytes: current, imported: imported, date: date) } catch {
                throw CLIError.failure("\(PrintableText.quoted(path)) line \(error.line): \(PrintableText.quoted(error.message))",
                                       hint: "ssh refuses this file too; fix the line. Nothing was commented out.")
            }
            guard !plan.taken.isEmpty || !plan.left.isEmpty else { continue }
            let backup = checking ? try InstalledSSHConfig.read(Self.backup(of: path)) : nil
            if let backup, !plan.taken.isEmpty, try normalized(SSHConfigTakeOver.undo(current), path) != normalized(backup, path) {
                throw CLIError.failure("'\(PrintableText.quoted(path))' changed since hostbook took over Host blocks of it, and '\(PrintableText.quoted(Self.backup(of: path)))' no longer matches it",
                                       hint: "Compare the two, keep what you want, then remove the backup and take over again. Nothing was commented out.")
            }
            out.append(FileChange(path: path, target: target, plan: plan, current: current, hasBackup: backup != nil))
        }
        for change in out where checking && !change.plan.taken.isEmpty {
            try Self.checkWritable(change.target, named: change.path)
            try Self.checkWritable(Self.backup(of: change.path), named: change.path)
        }
        return out
    }

    /// Writes the backups, then the files.
    func apply(_ changes: [FileChange]) throws {
        for change in changes where !change.plan.taken.isEmpty {
            if !change.hasBackup {
                try InstalledSSHConfig.writeAtomically(Self.backup(of: change.path), change.current, mode: 0o600)
            }
            try InstalledSSHConfig.writeAtomically(change.target, change.plan.text, mode: InstalledSSHConfig.mode(of: change.target) ?? 0o600)
        }
    }

    /// One file to give back its backup: the text to write (`original`, less hostbook's
    /// Include line) and where.
    struct Restore {
        let path: String
        let target: String
        let original: [UInt8]
    }

    /// The files of the user's configuration that have a take-over backup, each checked:
    /// refused, before anything is written, when one changed since.
    func restores() throws -> [Restore] {
        var out: [Restore] = []
        for path in userConfigFiles() {
            guard let backup = try InstalledSSHConfig.read(Self.backup(of: path)) else { continue }
            let target = try Self.target(path)
            let current = try InstalledSSHConfig.read(target) ?? []
            let original = try normalized(backup, path)
            guard try normalized(SSHConfigTakeOver.undo(current), path) == original else {
                throw CLIError.failure("'\(PrintableText.quoted(path))' changed since hostbook took over Host blocks of it; nothing was restored or uninstalled",
                                       hint: "Its text from before is '\(PrintableText.quoted(Self.backup(of: path)))': put back what you want by hand, remove the backup, then uninstall again.")
            }
            try Self.checkWritable(target, named: path)
            out.append(Restore(path: path, target: target, original: original))
        }
        return out
    }

    /// Whether a file of the user's configuration has a take-over backup.
    var hasBackups: Bool { userConfigFiles().contains { AtomicFile.exists(Self.backup(of: $0)) } }

    /// Writes each file's original text back and removes its backup.
    func restore(_ restores: [Restore]) throws {
        for r in restores {
            try InstalledSSHConfig.writeAtomically(r.target, r.original, mode: InstalledSSHConfig.mode(of: r.target) ?? 0o600)
            _ = unlink(Self.backup(of: r.path))
        }
    }

    /// `bytes` less hostbook's Include line on top, for ~/.ssh/config.
    private func normalized(_ bytes: [UInt8], _ path: String) throws -> [UInt8] {
        guard path == installed.userConfig else { return bytes }
        let line = Array(try installed.includeLine().utf8)
        return bytes.starts(with: line) ? Array(bytes.dropFirst(line.count)) : bytes
    }

    /// The end of `path`'s chain of links: a regular file.
    private static func target(_ path: String) throws -> String {
        do {
            guard let target = try AtomicFile.linkTarget(of: path) else { return path }
            return target
        } catch {
            switch error {
            case .io(let why):
                throw CLIError.failure(why.escapedForTerminal, hint: "Point it at a regular file you can write, or replace it with one; nothing was changed.")
            case .exists:
                throw CLIError.failure("cannot write '\(path.escapedForTerminal)'")
            }
        }
    }

    /// Refused unless `path`'s folder takes a new file (AtomicFile writes one beside it).
    private static func checkWritable(_ path: String, named name: String) throws {
        let folder = ParentFolder.of(path)
        if access(folder, W_OK | X_OK) != 0 {
            throw CLIError.failure("cannot write '\(name.escapedForTerminal)': the folder '\(folder.escapedForTerminal)' is not writable",
                                   hint: "Make it writable, or comment the Host blocks out yourself; nothing was changed.")
        }
    }
}
