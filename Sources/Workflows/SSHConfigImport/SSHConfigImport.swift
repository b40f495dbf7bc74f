// `import-ssh-config`: hosts from an OpenSSH client configuration, read with ssh's rules
// (SSHConfig) and resolved for each concrete Host alias as `ssh -G` would
// (docs/import-ssh-config.md), then saved by HostStore's SSHConfigImporter. Two steps, so
// that the executable tells what was passed over as soon as the file is read:
//   * `read`: the file and what it includes (hostbook's own installed configuration left
//     out), the candidates and the file-wide notes; refused (InstalledConfigRefusal) when
//     ssh would refuse the file too, or when it is no regular file;
//   * `run`: the import into the workspace's database (a dry run reads it, or an empty one
//     when there is none, and writes nothing).
// The file is only read, never changed; a take-over of the user's Host blocks is
// SSHConfigTakeOverFiles'.
import HostStore
import Sessions
import SSHConfig

public enum SSHConfigImport {
    public struct Read {
        public let path: String
        let configuration: SSHConfiguration
        public let candidates: [SSHConfigCandidate]
        public let notes: [SSHConfigFileNote]
        /// Included files not read, being no regular files, with why.
        public let passedOver: [(path: String, reason: String)]
        /// The files read, in ssh's order, less hostbook's own and those passed over: the
        /// files a take-over may change.
        public let userFiles: [String]
    }

    public static func read(_ workspace: Workspace, path: String) throws -> Read {
        // hostbook's own installed file (included by ~/.ssh/config) is left out and named once
        // in the notes.
        let files = SSHConfigFiles(installation: SSHConfigInstallation(home: workspace.homeDirectory, environment: workspace.environment),
                                   rules: .importing)
        let config: SSHConfiguration
        do {
            config = try SSHConfigLoader.load(path, access: files.access)
        } catch {
            throw InstalledConfigRefusal.configNotLoaded(error, root: path)
        }
        if let root = files.notRegular.first, root.path == path {
            throw InstalledConfigRefusal.configNotRegular(path: path, reason: root.reason)
        }
        let candidates = SSHConfigCandidates(files: files, environment: workspace.environment).candidates(config)
        var notes = SSHConfigCandidates.notes(config, files: files)
        if candidates.isEmpty { notes.append(.noConcreteHost(path: path)) }
        let userFiles = config.files.filter { file in !files.excluded.contains(file) && !files.notRegular.contains { $0.path == file } }
        return Read(path: path, configuration: config, candidates: candidates, notes: notes, passedOver: files.notRegular, userFiles: userFiles)
    }

    /// The report's notes start with `notes`, the words of `read.notes`.
    public static func run(_ workspace: Workspace, _ read: Read, notes: [ImportNote], dryRun: Bool) throws -> SSHConfigImportReport {
        let database = try workspace.database(dryRun: dryRun)
        do {
            return try SSHConfigImporter(database: database).run(read.candidates, dryRun: dryRun, notes: notes, files: read.configuration.files)
        } catch let e as HostStoreError where e.kind == .database {
            throw InstalledConfigRefusal.importNotWritten(e)
        }
    }

    /// The names a take-over hands to hostbook: each imported host's Host-line name and the
    /// other names saved as its aliases (a host saved under another name is left).
    public static func importedNames(_ report: SSHConfigImportReport) -> Set<String> {
        var names: Set<String> = []
        for host in report.hosts where host.action != .skipped && host.name == host.alias {
            names.insert(host.alias)
            names.formUnion(host.aliases)
        }
        return names
    }
}
