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
//   restored and the refusal names the file that changed (InstalledConfigRefusal).
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import SSHConfig
import Sessions
import System

public struct SSHConfigTakeOverFiles {
    let installed: InstalledSSHConfig

    public init(installed: InstalledSSHConfig) { self.installed = installed }

    /// `.NAME.hostbook-takeover` in the file's folder: hidden, so that no `Include conf.d/*`
    /// (glob(3) matches a leading dot only when the pattern has one) reads the old blocks back.
    public static func backup(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".hostbook-takeover" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".hostbook-takeover"
    }

    /// One file to rewrite: as named (`path`), the file written (`target`, the end of its links).
    public struct FileChange {
        public let path: String
        let target: String
        public let plan: SSHConfigTakeOver.Plan
        let current: [UInt8]
        let hasBackup: Bool
    }

    /// What `ssh-config --install` tells, once the Include line is in place, about the saved
    /// hosts it left to the user's own Host blocks (`leftOut`): the take-over of those names
    /// as it would go (unchecked), for the exact lines it comments out and the blocks it
    /// would leave, with why. Empty when none is left out or the files cannot be read.
    public func hints(leftOut: [String]) -> [FileChange] {
        guard !leftOut.isEmpty, let changes = try? plan(files: userConfigFiles(), imported: Set(leftOut), date: Self.today(), checking: false) else { return [] }
        return changes
    }

    /// ~/.ssh/config and the files it includes, in ssh's order (hostbook's own left out).
    public func userConfigFiles() -> [String] {
        var files = [installed.userConfig]
        let reader = SSHConfigFiles(installation: installed.layout, rules: .definedHosts)
        if let config = try? SSHConfigLoader.load(installed.userConfig, access: reader.access) {
            files += config.files.filter { $0 != installed.userConfig && !reader.excluded.contains($0) }
        }
        return files
    }

    /// Today (UTC), as the marker names it: YYYY-MM-DD.
    public static func today() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }

    /// The take-over of every file in `files` (ssh's reading order) for the names `imported`.
    /// `checking`: whether a file's backup and folder are checked (false for a hint).
    public func plan(files: [String], imported: Set<String>, date: String, checking: Bool = true) throws -> [FileChange] {
        var out: [FileChange] = []
        for path in files {
            let target = try Self.target(path)
            guard let current = try ConfigFiles.read(target) else { continue }
            let plan: SSHConfigTakeOver.Plan
            do { plan = try SSHConfigTakeOver.plan(file: path, bytes: current, imported: imported, date: date) } catch {
                throw InstalledConfigRefusal.takeOverSyntax(path: path, line: error.line, message: error.message)
            }
            guard !plan.taken.isEmpty || !plan.left.isEmpty else { continue }
            let backup = checking ? try ConfigFiles.read(Self.backup(of: path)) : nil
            if let backup, !plan.taken.isEmpty, try normalized(SSHConfigTakeOver.undo(current), path) != normalized(backup, path) {
                throw InstalledConfigRefusal.takeOverChangedSinceBackup(path: path, backup: Self.backup(of: path))
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
    public func apply(_ changes: [FileChange]) throws {
        for change in changes where !change.plan.taken.isEmpty {
            if !change.hasBackup {
                try ConfigFiles.writeAtomically(Self.backup(of: change.path), change.current, mode: 0o600)
            }
            try ConfigFiles.writeAtomically(change.target, change.plan.text, mode: ConfigFiles.mode(of: change.target) ?? 0o600)
        }
    }

    /// One file to give back its backup: the text to write (`original`, less hostbook's
    /// Include line) and where.
    public struct Restore {
        public let path: String
        let target: String
        let original: [UInt8]
    }

    /// The files of the user's configuration that have a take-over backup, each checked:
    /// refused, before anything is written, when one changed since.
    public func restores() throws -> [Restore] {
        var out: [Restore] = []
        for path in userConfigFiles() {
            guard let backup = try ConfigFiles.read(Self.backup(of: path)) else { continue }
            let target = try Self.target(path)
            let current = try ConfigFiles.read(target) ?? []
            let original = try normalized(backup, path)
            guard try normalized(SSHConfigTakeOver.undo(current), path) == original else {
                throw InstalledConfigRefusal.restoreChangedSinceTakeOver(path: path, backup: Self.backup(of: path))
            }
            try Self.checkWritable(target, named: path)
            out.append(Restore(path: path, target: target, original: original))
        }
        return out
    }

    /// Whether a file of the user's configuration has a take-over backup.
    public var hasBackups: Bool { userConfigFiles().contains { AtomicFile.exists(Self.backup(of: $0)) } }

    /// Writes each file's original text back and removes its backup.
    public func restore(_ restores: [Restore]) throws {
        for r in restores {
            try ConfigFiles.writeAtomically(r.target, r.original, mode: ConfigFiles.mode(of: r.target) ?? 0o600)
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
        try ConfigFiles.linkTarget(of: path) ?? path
    }

    /// Refused unless `path`'s folder takes a new file (AtomicFile writes one beside it).
    private static func checkWritable(_ path: String, named name: String) throws {
        let folder = ParentFolder.of(path)
        if access(folder, W_OK | X_OK) != 0 {
            throw InstalledConfigRefusal.takeOverFolderNotWritable(path: name, folder: folder)
        }
    }
}
