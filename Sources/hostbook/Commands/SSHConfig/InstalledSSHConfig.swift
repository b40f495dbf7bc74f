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
//     (`refreshIfInstalled`, called once by the dispatcher after a successful command),
//     except `add`, which writes only the new host's file in `added/` (and its public key
//     file when that is new): its cost does not grow with the number of saved hosts. The
//     whole file is written again once `added/` holds SSHConfigInstallation.maxAddedFiles
//     files, and by every other command; the added files are removed after it.
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System

struct InstalledSSHConfig {
    let layout: SSHConfigInstallation
    var folder: String { layout.folder }
    var generated: String { layout.generated }
    var keysFolder: String { layout.keysFolder }
    var addedFolder: String { layout.addedFolder }
    var userConfig: String { layout.userConfig }
    var backup: String { layout.backup }

    init(_ inv: Invocation) {
        layout = SSHConfigInstallation(home: inv.homeDirectory, environment: inv.environment)
    }

    /// The line that includes the generated file, newline included.
    func includeLine() throws -> String { try layout.includeLine() }

    var isInstalled: Bool { access(generated, F_OK) == 0 }

    /// The configuration for every saved host, rendered (nothing written), without the
    /// hosts the user's own ~/.ssh/config defines.
    func render(_ inv: Invocation) throws -> StandingSSHConfig.Rendered {
        let block = SSHHostBlock(hostbookPath: try SSHPaths.executable(), databasePath: SSHPaths.absolute(inv.databasePath), noInput: false)
        let socket = try AgentSocket.defaultPath(environment: inv.environment)
        return try layout.render(databasePath: inv.databasePath, block: block, agentSocket: socket)
    }

    /// The generated file's text: the rendered blocks, then the Include of `added/`.
    func generatedText(_ rendered: StandingSSHConfig.Rendered) throws -> [UInt8] {
        Array((rendered.text + (try layout.addedInclude())).utf8)
    }

    /// The installed blocks: those of the generated file and of the files in `added/`
    /// (nil when the generated file cannot be read). Blocks hold no empty line.
    func installedBlocks() -> [String]? {
        guard let main = try? Self.read(generated), let include = try? layout.addedInclude() else { return nil }
        var text = String(decoding: main, as: UTF8.self)
        guard text.hasPrefix(StandingSSHConfig.header), text.hasSuffix(include) else { return nil }
        text = String(text.dropFirst(StandingSSHConfig.header.count).dropLast(include.count))
        for name in ((try? Self.list(addedFolder)) ?? []).sorted() where name.hasSuffix(".conf") {
            guard let bytes = try? Self.read(addedFolder + "/" + name) else { return nil }
            text += "\n" + String(decoding: bytes, as: UTF8.self)
        }
        return Self.blocks(of: text)
    }

    /// ssh_config text cut into Host blocks, each from its `Host` line to the line before
    /// the next (empty lines left out; a value never holds a line break).
    static func blocks(of text: String) -> [String] {
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
    func isCurrent(_ rendered: StandingSSHConfig.Rendered) -> Bool {
        let added = ((try? Self.list(addedFolder)) ?? []).filter { $0.hasSuffix(".conf") }
        if added.isEmpty, let main = try? Self.read(generated), let include = try? layout.addedInclude() {
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
    static func hosts(of blocks: [String], shared: String) -> (own: [String], sharing: [String]) {
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
    var generatedPassesSSHPermissionCheck: Bool {
        var info = stat()
        guard stat(generated, &info) == 0 else { return false }
        return (info.st_uid == 0 || info.st_uid == getuid()) && info.st_mode & 0o022 == 0
    }

    /// Writes the generated file and the public key files (removing key files no host uses);
    /// returns what was rendered, for its warnings.
    @discardableResult
    func writeGenerated(_ inv: Invocation) throws -> StandingSSHConfig.Rendered {
        let rendered = try render(inv)
        try Self.makeFolder(folder)
        try Self.makeFolder(keysFolder)
        for (path, line) in rendered.publicKeyFiles where (try? Self.read(path)) != Array(line.utf8) {
            try Self.writeAtomically(path, Array(line.utf8), mode: 0o644)
        }
        for name in (try? Self.list(keysFolder)) ?? [] where name.hasSuffix(".pub") && rendered.publicKeyFiles[keysFolder + "/" + name] == nil {
            _ = unlink(keysFolder + "/" + name)
        }
        try Self.writeAtomically(generated, try generatedText(rendered), mode: 0o600)
        // The file now holds every host: the added ones are removed after it is in place,
        // so a host is never missing in between (a block of the file wins over its copy).
        for name in (try? Self.list(addedFolder)) ?? [] where name.hasSuffix(".conf") {
            _ = unlink(addedFolder + "/" + name)
        }
        return rendered
    }

    /// After `add` of the host called `name`: writes only that host's file in `added/` (and
    /// its public key file when missing or different): its own block as the whole rendering
    /// would write it, then the shared lines for its names. Nil when the whole file is to be written instead (the generated file is
    /// not one this version wrote, or `added/` is full). Returns what was rendered for the
    /// host and its jump hosts, for the warnings.
    func writeAdded(_ inv: Invocation, name: String) throws -> StandingSSHConfig.Rendered? {
        let include = Array(try layout.addedInclude().utf8)
        // The end of the generated file says whether it includes `added/` (a file written
        // before it did is written whole once).
        guard let tail = try Self.readTail(generated, count: include.count), tail == include else { return nil }
        let present = ((try? Self.list(addedFolder)) ?? []).filter { $0.hasSuffix(".conf") }
        guard present.count < SSHConfigInstallation.maxAddedFiles else { return nil }
        let block = SSHHostBlock(hostbookPath: try SSHPaths.executable(), databasePath: SSHPaths.absolute(inv.databasePath), noInput: false)
        let socket = try AgentSocket.defaultPath(environment: inv.environment)
        guard let (rendered, host) = try layout.renderOne(named: name, databasePath: inv.databasePath, block: block, agentSocket: socket) else { return nil }
        guard let index = rendered.written.firstIndex(where: { $0.lowercased() == host.name.lowercased() }) else { return rendered }
        try Self.makeFolder(keysFolder)
        for (path, line) in rendered.publicKeyFiles where (try? Self.read(path)) != Array(line.utf8) {
            try Self.writeAtomically(path, Array(line.utf8), mode: 0o644)
        }
        try Self.makeFolder(addedFolder)
        try Self.writeAtomically(addedFolder + "/" + SSHConfigInstallation.addedFileName(id: host.id), Array(rendered.standalone(index).utf8), mode: 0o600)
        return rendered
    }

    /// The file that holds ~/.ssh/config's text: ~/.ssh/config itself, or the end of its
    /// chain of symbolic links (a dotfile manager's link stays a link; the target is
    /// rewritten in its own folder). Nil when there is none. Refused, before anything is
    /// written, when that is no regular file or its folder cannot take the new file.
    func userConfigTarget() throws -> String? {
        let target: String?
        do { target = try AtomicFile.linkTarget(of: userConfig) } catch {
            switch error {
            case .io(let why):
                throw CLIError.failure(why.escapedForTerminal, hint: "Point it at a regular file you can write, or replace it with one; nothing was changed.")
            case .exists:
                throw CLIError.failure("cannot write '\(userConfig.escapedForTerminal)'")
            }
        }
        let folder = ParentFolder.of(target ?? userConfig)
        if access(folder, F_OK) == 0, access(folder, W_OK | X_OK) != 0 {
            let what = target.map { $0 == userConfig ? "" : " (a link to '\($0.escapedForTerminal)')" } ?? ""
            throw CLIError.failure("cannot write '\(userConfig.escapedForTerminal)'\(what): the folder '\(folder.escapedForTerminal)' is not writable",
                                   hint: "Make it writable, or add the Include line yourself; nothing was changed.")
        }
        return target
    }

    /// Puts the Include line first in ~/.ssh/config (in its link's target); false when it
    /// already was.
    func addInclude() throws -> Bool {
        let line = Array(try includeLine().utf8)
        guard let target = try userConfigTarget(), let old = try Self.read(target) else {
            try Self.makeFolder(ParentFolder.of(userConfig))
            try Self.writeAtomically(userConfig, line, mode: 0o600)
            return true
        }
        if old.starts(with: line) { return false }
        try Self.writeAtomically(backup, old, mode: 0o600)
        try Self.writeAtomically(target, line + old, mode: Self.mode(of: target) ?? 0o600)
        return true
    }

    /// Removes the Include line from the top of ~/.ssh/config (in its link's target); false
    /// when it was not there. A file that held nothing else (hostbook created it) is
    /// removed; a link's target is kept, empty.
    func removeInclude() throws -> Bool {
        let line = Array(try includeLine().utf8)
        guard let target = try userConfigTarget(), let old = try Self.read(target), old.starts(with: line) else { return false }
        let rest = Array(old.dropFirst(line.count))
        if rest.isEmpty && target == userConfig {
            _ = unlink(userConfig)
        } else {
            try Self.writeAtomically(target, rest, mode: Self.mode(of: target) ?? 0o600)
        }
        return true
    }

    func removeGenerated() {
        for name in (try? Self.list(keysFolder)) ?? [] where name.hasSuffix(".pub") { _ = unlink(keysFolder + "/" + name) }
        _ = rmdir(keysFolder)
        for name in (try? Self.list(addedFolder)) ?? [] where name.hasSuffix(".conf") { _ = unlink(addedFolder + "/" + name) }
        _ = rmdir(addedFolder)
        layout.knownHosts.removeAll()
        _ = unlink(generated)
    }

    // MARK: The hook

    /// After a successful command: rewrites the installed file when the command changes
    /// hosts or keys (its spec says so). A failure here is a warning; the command itself
    /// succeeded.
    static func refreshIfInstalled(after spec: CommandSpec, _ inv: Invocation) {
        guard spec.changesHostsOrKeys, !inv.args.sharedFlag(.dryRun) else { return }
        let installed = InstalledSSHConfig(inv)
        guard installed.isInstalled else { return }
        do {
            // Only the hosts left out for the user's own blocks are told again: the user
            // has to act on them; the other warnings were given at --install. After `add`,
            // those of the new host and its jump hosts.
            let rendered: StandingSSHConfig.Rendered
            if spec.words == ["add"], let name = inv.args.positional(0), let one = try installed.writeAdded(inv, name: name) {
                rendered = one
            } else {
                rendered = try installed.writeGenerated(inv)
            }
            for clash in rendered.clashes { inv.warn("\(clash.warning)") }
        } catch let e as UserFacingError {
            inv.warn("could not rewrite \(installed.generated): \(e.message)")
        } catch {
            inv.warn("could not rewrite \(installed.generated): \(error)")
        }
    }

    // MARK: Files

    static let maxReadSize = 64 << 20

    /// A regular file's bytes (nil when it does not exist); never blocks on a FIFO or device.
    static func read(_ path: String) throws -> [UInt8]? {
        let fd: Int32
        do { fd = try RegularFile.open(path).fd } catch {
            switch error {
            case .system(let why):
                var info = stat()
                if stat(path, &info) != 0 && errno == ENOENT { return nil }
                throw CLIError.failure("cannot read \(path.escapedForTerminal): \(why)")
            case .notRegular: throw CLIError.failure("cannot read \(path.escapedForTerminal): it is not a regular file")
            }
        }
        defer { close(fd) }
        do { return try FileDescriptor(fd).readToEnd(limit: maxReadSize) } catch {
            switch error {
            case .system(let why): throw CLIError.failure("cannot read \(path.escapedForTerminal): \(why)")
            case .tooLong: throw CLIError.failure("cannot read \(path.escapedForTerminal): it is larger than 64 MiB")
            }
        }
    }

    /// The last `count` bytes of a regular file (nil when it does not exist or is shorter).
    static func readTail(_ path: String, count: Int) throws -> [UInt8]? {
        let fd: Int32
        let info: stat
        do { (fd, info) = try RegularFile.open(path) } catch { return nil }
        defer { close(fd) }
        guard Int(info.st_size) >= count else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        guard lseek(fd, off_t(Int(info.st_size) - count), SEEK_SET) >= 0,
              let n = try? out.withUnsafeMutableBytes({ try FileDescriptor(fd).readFully(into: $0) }) else { return nil }
        return n == count ? out : nil
    }

    /// Replaces `path` whole or not at all (AtomicFile: a fresh temporary file in the same
    /// folder, fsync'ed, renamed over it, the folder fsync'ed).
    static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t) throws {
        do {
            try AtomicFile.write(path, bytes: bytes, mode: mode, replace: true)
        } catch AtomicFile.Failure.io(let why) {
            throw CLIError.failure("cannot write \(path.escapedForTerminal): \(why.escapedForTerminal)")
        } catch {
            throw CLIError.failure("cannot write \(path.escapedForTerminal): \(error)")
        }
    }

    /// Creates the folder (and missing parents) 0700.
    static func makeFolder(_ path: String) throws {
        do {
            try PrivateFolder.make(path)
        } catch {
            throw CLIError.failure("cannot create \(error.path.escapedForTerminal): \(error.errno)")
        }
    }

    static func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func list(_ folder: String) throws -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
