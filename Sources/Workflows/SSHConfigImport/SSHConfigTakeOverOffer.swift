// After `import-ssh-config` of ~/.ssh/config: which of the user's Host blocks for the hosts
// just imported can be commented out (Sessions' SSHConfigTakeOver through
// SSHConfigTakeOverFiles), so that the installed configuration serves them, and which are
// left with the reason. Only ~/.ssh/config and the files it includes are taken over: they
// are what the installed configuration defers to (UserSSHConfigHosts), and what
// `ssh-config --uninstall --restore` gives back. Whether to ask, and the words, are the
// executable's (SSHConfigImportTakeOver).
import HostStore
import Sessions

public struct SSHConfigTakeOverOffer {
    public let files: SSHConfigTakeOverFiles
    /// Each file's plan: the blocks taken and those left (with why).
    public let changes: [SSHConfigTakeOverFiles.FileChange]

    /// The files with a block to take over.
    public var taking: [SSHConfigTakeOverFiles.FileChange] { changes.filter { !$0.plan.taken.isEmpty } }

    /// The offer after importing `path` (`report`, from `files` in ssh's order, hostbook's
    /// own left out). nil when there is none: `path` is another file than ~/.ssh/config
    /// (refused when the take-over was `requested`), or, unasked, a file cannot be planned
    /// (the import itself succeeded); a requested plan's failure is thrown.
    public static func make(_ workspace: Workspace, report: SSHConfigImportReport, path: String, files: [String],
                            requested: Bool) throws -> SSHConfigTakeOverOffer? {
        let installed = InstalledSSHConfig(workspace: workspace)
        guard path == installed.userConfig else {
            if requested { throw InstalledConfigRefusal.takeOverNotUserConfig(path: path) }
            return nil
        }
        let takeOver = SSHConfigTakeOverFiles(installed: installed)
        let plan = { try takeOver.plan(files: files, imported: SSHConfigImport.importedNames(report), date: SSHConfigTakeOverFiles.today()) }
        guard let changes = requested ? try plan() : try? plan() else { return nil }
        return SSHConfigTakeOverOffer(files: takeOver, changes: changes)
    }

    /// Comments the blocks of `taking` out, each file's text from before kept in its backup.
    public func apply() throws {
        try files.apply(taking)
    }
}
