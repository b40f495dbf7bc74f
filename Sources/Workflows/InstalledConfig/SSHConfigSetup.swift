// `ssh-config --install` and `--uninstall`, the steps in their order (the executable says
// what was done):
//   * installing refuses a ~/.ssh/config hostbook cannot write (through its link) before
//     anything is written, writes the generated file, then puts the Include line on top; a
//     failure there takes back a generated file it made. The saved hosts left to the user's
//     own Host blocks come back with the take-over that would hand them to hostbook;
//   * uninstalling with `restoring` first checks every take-over backup (refused, nothing
//     changed, when a file was edited since), then removes the Include line and the
//     generated files; the caller then gives the backups back (SSHConfigTakeOverFiles.restore).
import Sessions

extension InstalledSSHConfig {
    public struct Installation {
        public let rendered: StandingSSHConfig.Rendered
        /// False when ~/.ssh/config already included the file.
        public let includeAdded: Bool
        /// The take-over of the hosts left out for the user's own blocks (SSHConfigTakeOverFiles.hints).
        public let takeOver: [SSHConfigTakeOverFiles.FileChange]
    }

    /// `written`: called once the generated file is written, before the Include line is
    /// (the warnings of what was rendered are told then).
    public func install(_ programs: Programs, written: (StandingSSHConfig.Rendered) -> Void) throws -> Installation {
        _ = try userConfigTarget()
        let wasInstalled = isInstalled
        let rendered = try writeGenerated(programs)
        written(rendered)
        let added: Bool
        do { added = try addInclude() } catch {
            if !wasInstalled { removeGenerated() }
            throw error
        }
        let takeOver = SSHConfigTakeOverFiles(installed: self).hints(leftOut: rendered.clashes.map(\.host))
        return Installation(rendered: rendered, includeAdded: added, takeOver: takeOver)
    }

    public struct Uninstallation {
        /// Whether there was anything to remove (the Include line or the generated file).
        public let removed: Bool
        /// The files to give their take-over backup back, checked.
        public let restores: [SSHConfigTakeOverFiles.Restore]
    }

    public func uninstall(restoring: Bool) throws -> Uninstallation {
        let restores = restoring ? try SSHConfigTakeOverFiles(installed: self).restores() : []
        let removed = try removeInclude()
        let hadFile = isInstalled
        removeGenerated()
        return Uninstallation(removed: removed || hadFile, restores: restores)
    }
}
