// Putting the installed ssh configuration in place (where it lives and what it holds:
// Sessions' SSHConfigInstallation):
//   * the generated file 0600, written by AtomicFile (the program's atomic file writer),
//     and the public key files beside it, 0644;
//   * exactly one `Include` line for it at the very top of ~/.ssh/config (the first value
//     ssh obtains wins, and an Include after a Host line would belong to that block). The
//     rest of the file stays byte-identical, the previous content is kept as
//     ~/.ssh/config.hostbook-backup, and uninstalling removes exactly that line. A
//     ~/.ssh/config that is a symbolic link stays one: the end of its chain is rewritten.
//   * Every command that changes hosts or keys rewrites the file when it is installed
//     (`refresh`, called once by the dispatcher after a successful command),
//     except `add`, which writes only the new host's file in `added/` (and its public key
//     file when that is new): its cost does not grow with the number of saved hosts. The
//     whole file is written again once `added/` holds SSHConfigInstallation.maxAddedFiles
//     files, and by every other command; the added files are removed after it.
// Errors are InstalledConfigRefusal (and Sessions' SessionRefusal); the executable words them.
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System

public struct InstalledSSHConfig {
    /// How the blocks name hostbook and its agent, which the executable finds: this
    /// program's absolute path (KnownHostsCommand) and the standing agent's socket
    /// (IdentityAgent).
    public struct Programs: Sendable {
        public let hostbook: String
        public let agentSocket: String

        public init(hostbook: String, agentSocket: String) {
            self.hostbook = hostbook
            self.agentSocket = agentSocket
        }
    }

    public let layout: SSHConfigInstallation
    let workspace: Workspace
    public var folder: String { layout.folder }
    public var generated: String { layout.generated }
    public var keysFolder: String { layout.keysFolder }
    public var addedFolder: String { layout.addedFolder }
    public var userConfig: String { layout.userConfig }
    public var backup: String { layout.backup }

    public init(workspace: Workspace) {
        self.workspace = workspace
        layout = SSHConfigInstallation(home: workspace.homeDirectory, environment: workspace.environment)
    }

    /// The line that includes the generated file, newline included.
    public func includeLine() throws -> String { try layout.includeLine() }

    public var isInstalled: Bool { access(generated, F_OK) == 0 }

    /// The block's words for hostbook itself, over the workspace's database.
    private func block(_ programs: Programs) -> SSHHostBlock {
        SSHHostBlock(hostbookPath: programs.hostbook, databasePath: ExecutablePath.absolute(workspace.databasePath), noInput: false)
    }

    /// The configuration for every saved host, rendered (nothing written), without the
    /// hosts the user's own ~/.ssh/config defines.
    public func render(_ programs: Programs) throws -> StandingSSHConfig.Rendered {
        try layout.render(database: try workspace.existingDatabase(), block: block(programs), agentSocket: programs.agentSocket)
    }

    /// The generated file's text: the rendered blocks, then the Include of `added/`.
    func generatedText(_ rendered: StandingSSHConfig.Rendered) throws -> [UInt8] {
        Array((rendered.text + (try layout.addedInclude())).utf8)
    }

    /// The installed blocks: those of the generated file and of the files in `added/`
    /// (nil when the generated file cannot be read). Blocks hold no empty line.
    public func installedBlocks() -> [String]? {
        guard let main = try? ConfigFiles.read(generated), let include = try? layout.addedInclude() else { return nil }
        var text = String(decoding: main, as: UTF8.self)
        guard text.hasPrefix(StandingSSHConfig.header), text.hasSuffix(include) else { return nil }
        text = String(text.dropFirst(StandingSSHConfig.header.count).dropLast(include.count))
        for name in ConfigFiles.list(addedFolder).sorted() where name.hasSuffix(".conf") {
            guard let bytes = try? ConfigFiles.read(addedFolder + "/" + name) else { return nil }
            text += "\n" + String(decoding: bytes, as: UTF8.self)
        }
        return Self.blocks(of: text)
    }

    /// ssh_config text cut into Host blocks, each from its `Host` line to the line before
    /// the next (empty lines left out; a value never holds a line break).
    public static func blocks(of text: String) -> [String] {
        // Cut by bytes: `doctor` may cut the whole installed file, 5 lines or more per saved host.
        let bytes = Array(text.utf8)
        let hostPrefix = Array("Host ".utf8)
        var out: [String] = []
        var block: [UInt8] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end > start {
                if bytes[start..<end].starts(with: hostPrefix) && !block.isEmpty {
                    out.append(String(decoding: block, as: UTF8.self))
                    block.removeAll(keepingCapacity: true)
                }
                block += bytes[start..<end]
                block.append(0x0A)
            }
            start = end + 1
        }
        if !block.isEmpty { out.append(String(decoding: block, as: UTF8.self)) }
        return out
    }

    /// Whether the installed files hold what hostbook would write now (`rendered`): the
    /// generated file byte for byte when `added/` is empty (every command but `add` leaves
    /// it so), else, in the generated file and the added files together, the same set of
    /// hosts' own blocks and the same names under the shared lines (StandingSSHConfig's
    /// groups, an added host's file holding its own), whatever the order the adds put them in.
    public func isCurrent(_ rendered: StandingSSHConfig.Rendered) -> Bool {
        let added = ConfigFiles.list(addedFolder).filter { $0.hasSuffix(".conf") }
        if added.isEmpty, let main = try? ConfigFiles.read(generated), let include = try? layout.addedInclude() {
            // generatedText(rendered), compared in place rather than built (4 MB at 10,000 hosts).
            var text = rendered.text
            let same = text.withUTF8 { body in
                main.count == body.count + include.utf8.count && main.starts(with: body) && main[body.count...].elementsEqual(include.utf8)
            }
            if same { return true }
        }
        guard let blocks = installedBlocks() else { return false }
        let installed = Self.hosts(of: blocks, shared: rendered.shared)
        return installed.own.sorted() == Self.blocks(of: rendered.blocks.joined()).sorted()
            && installed.sharing.sorted() == rendered.names.flatMap({ $0 }).sorted()
    }

    /// Blocks cut by `blocks(of:)`, told apart: a block whose lines after its Host line are
    /// exactly `shared` is a group's (its names are in `sharing`, one entry per word of its
    /// Host line); any other block is a host's own.
    public static func hosts(of blocks: [String], shared: String) -> (own: [String], sharing: [String]) {
        var own: [String] = [], sharing: [String] = []
        for block in blocks {
            if let lineEnd = block.utf8.firstIndex(of: 0x0A), block.utf8[block.utf8.index(after: lineEnd)...].elementsEqual(shared.utf8) {
                sharing += block[block.index(block.startIndex, offsetBy: "Host ".count)..<lineEnd].split(separator: " ").map(String.init)
            } else {
                own.append(block)
            }
        }
        return (own, sharing)
    }

    /// Whether ssh accepts the generated file as an included file: owned by the user or
    /// root and writable by nobody else (readconf.c read_config_file_depth, with
    /// SSHCONF_CHECKPERM, which every Include sets: "Bad owner or permissions").
    public var generatedPassesSSHPermissionCheck: Bool {
        var info = stat()
        guard stat(generated, &info) == 0 else { return false }
        return (info.st_uid == 0 || info.st_uid == getuid()) && info.st_mode & 0o022 == 0
    }

    /// Writes the generated file and the public key files (removing key files no host uses);
    /// returns what was rendered, for its warnings.
    @discardableResult
    public func writeGenerated(_ programs: Programs) throws -> StandingSSHConfig.Rendered {
        let rendered = try render(programs)
        try ConfigFiles.makeFolder(folder)
        try writePublicKeyFiles(rendered)
        for name in ConfigFiles.list(keysFolder) where name.hasSuffix(".pub") && rendered.publicKeyFiles[keysFolder + "/" + name] == nil {
            _ = unlink(keysFolder + "/" + name)
        }
        try ConfigFiles.writeAtomically(generated, try generatedText(rendered), mode: 0o600)
        // The file now holds every host: the added ones are removed after it is in place,
        // so a host is never missing in between (a block of the file wins over its copy).
        for name in ConfigFiles.list(addedFolder) where name.hasSuffix(".conf") {
            _ = unlink(addedFolder + "/" + name)
        }
        return rendered
    }

    /// Each public key file `rendered` names, written where it is missing or different.
    private func writePublicKeyFiles(_ rendered: StandingSSHConfig.Rendered) throws {
        try ConfigFiles.makeFolder(keysFolder)
        for (path, line) in rendered.publicKeyFiles where (try? ConfigFiles.read(path)) != Array(line.utf8) {
            try ConfigFiles.writeAtomically(path, Array(line.utf8), mode: 0o644)
        }
    }

    /// After `add` of the host called `name`: writes only that host's file in `added/` (and
    /// its public key file when missing or different): its own block as the whole rendering
    /// would write it, then the shared lines for its names. Nil when the whole file is to be written instead (the generated file is
    /// not one this version wrote, or `added/` is full). Returns what was rendered for the
    /// host and its jump hosts, for the warnings.
    public func writeAdded(_ programs: Programs, name: String) throws -> StandingSSHConfig.Rendered? {
        let include = Array(try layout.addedInclude().utf8)
        // The end of the generated file says whether it includes `added/` (a file written
        // before it did is written whole once).
        guard let tail = try ConfigFiles.readTail(generated, count: include.count), tail == include else { return nil }
        let present = ConfigFiles.list(addedFolder).filter { $0.hasSuffix(".conf") }
        guard present.count < SSHConfigInstallation.maxAddedFiles else { return nil }
        guard let database = try workspace.existingDatabase(),
              let (rendered, host) = try layout.renderOne(named: name, database: database, block: block(programs), agentSocket: programs.agentSocket) else { return nil }
        guard let index = rendered.written.firstIndex(where: { $0.lowercased() == host.name.lowercased() }) else { return rendered }
        try writePublicKeyFiles(rendered)
        try ConfigFiles.makeFolder(addedFolder)
        try ConfigFiles.writeAtomically(addedFolder + "/" + SSHConfigInstallation.addedFileName(id: host.id), Array(rendered.standalone(index).utf8), mode: 0o600)
        return rendered
    }

    /// The file that holds ~/.ssh/config's text: ~/.ssh/config itself, or the end of its
    /// chain of symbolic links (a dotfile manager's link stays a link; the target is
    /// rewritten in its own folder). Nil when there is none. Refused, before anything is
    /// written, when that is no regular file or its folder cannot take the new file.
    public func userConfigTarget() throws -> String? {
        let target = try ConfigFiles.linkTarget(of: userConfig)
        let folder = ParentFolder.of(target ?? userConfig)
        if access(folder, F_OK) == 0, access(folder, W_OK | X_OK) != 0 {
            throw InstalledConfigRefusal.userConfigFolderNotWritable(path: userConfig, linkTarget: target, folder: folder)
        }
        return target
    }

    /// Puts the Include line first in ~/.ssh/config (in its link's target); false when it
    /// already was.
    public func addInclude() throws -> Bool {
        let line = Array(try includeLine().utf8)
        guard let target = try userConfigTarget(), let old = try ConfigFiles.read(target) else {
            try ConfigFiles.makeFolder(ParentFolder.of(userConfig))
            try ConfigFiles.writeAtomically(userConfig, line, mode: 0o600)
            return true
        }
        if old.starts(with: line) { return false }
        try ConfigFiles.writeAtomically(backup, old, mode: 0o600)
        try ConfigFiles.writeAtomically(target, line + old, mode: ConfigFiles.mode(of: target) ?? 0o600)
        return true
    }

    /// Removes the Include line from the top of ~/.ssh/config (in its link's target); false
    /// when it was not there. A file that held nothing else (hostbook created it) is
    /// removed; a link's target is kept, empty.
    public func removeInclude() throws -> Bool {
        let line = Array(try includeLine().utf8)
        guard let target = try userConfigTarget(), let old = try ConfigFiles.read(target), old.starts(with: line) else { return false }
        let rest = Array(old.dropFirst(line.count))
        if rest.isEmpty && target == userConfig {
            _ = unlink(userConfig)
        } else {
            try ConfigFiles.writeAtomically(target, rest, mode: ConfigFiles.mode(of: target) ?? 0o600)
        }
        return true
    }

    public func removeGenerated() {
        for name in ConfigFiles.list(keysFolder) where name.hasSuffix(".pub") { _ = unlink(keysFolder + "/" + name) }
        _ = rmdir(keysFolder)
        for name in ConfigFiles.list(addedFolder) where name.hasSuffix(".conf") { _ = unlink(addedFolder + "/" + name) }
        _ = rmdir(addedFolder)
        layout.knownHosts.removeAll()
        _ = unlink(generated)
    }

    // MARK: After a command

    /// After a command that changed hosts or keys, the configuration being installed: the
    /// file written again, or after `add` of the host called `added` only that host's file
    /// in `added/` when that serves. Returns what was rendered, for the warnings.
    public func refresh(_ programs: Programs, added: String?) throws -> StandingSSHConfig.Rendered {
        if let added, let one = try writeAdded(programs, name: added) { return one }
        return try writeGenerated(programs)
    }
}
