// Where the installed ssh configuration lives and how it is put in place:
//   * `$XDG_CONFIG_HOME/hostbook/ssh_config` (default ~/.config), 0600, written atomically
//     (a temporary file renamed over it), with the public key files in `keys/` beside it;
//   * exactly one `Include` line for it at the very top of ~/.ssh/config (the first value
//     ssh obtains wins, and an Include after a Host line would belong to that block). The
//     rest of the file stays byte-identical, the previous content is kept as
//     ~/.ssh/config.hostbook-backup, and uninstalling removes exactly that line.
//   * Every command that changes hosts or keys rewrites the file when it is installed
//     (`refreshIfInstalled`, called once by the dispatcher after a successful command).
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import SSHConfig

struct InstalledSSHConfig {
    let folder: String
    var generated: String { folder + "/ssh_config" }
    var keysFolder: String { folder + "/keys" }
    let userConfig: String
    var backup: String { userConfig + ".hostbook-backup" }

    init(_ inv: Invocation) {
        let home = inv.homeDirectory
        let configHome = inv.environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        folder = configHome + "/hostbook"
        userConfig = home + "/.ssh/config"
    }

    /// The line that includes the generated file, newline included.
    func includeLine() throws -> String {
        do {
            return "Include " + (try SSHConfigWriter.quote(generated, keyword: "Include")) + "\n"
        } catch let e as SSHConfigWriterError {
            throw CLIError.failure("the path \(generated.escapedForTerminal) cannot be written in ssh_config: \(e.reason)",
                                   hint: "Set XDG_CONFIG_HOME to a plainer folder.")
        }
    }

    var isInstalled: Bool { access(generated, F_OK) == 0 }

    /// The configuration for every saved host, rendered (nothing written).
    static func render(_ inv: Invocation, keysFolder: String) throws -> StandingSSHConfig.Rendered {
        let database = try HostStoreAccess.openForReading(inv)
        let hosts = try database?.hosts() ?? []
        let keys = try database.map { try KeyStore(database: $0).list() } ?? []
        let block = SSHHostBlock(hostbookPath: try SSHPaths.executable(), databasePath: SSHPaths.absolute(inv.databasePath), noInput: false)
        let socket = try AgentSocket.defaultPath(environment: inv.environment)
        return StandingSSHConfig(block: block, agentSocket: socket, keysFolder: keysFolder).render(hosts: hosts, keys: keys)
    }

    /// Writes the generated file and the public key files (removing key files no host uses).
    func writeGenerated(_ inv: Invocation, warn: Bool) throws {
        let rendered = try Self.render(inv, keysFolder: keysFolder)
        if warn { for w in rendered.warnings { inv.warn("\(w)") } }
        try Self.makeFolder(folder)
        try Self.makeFolder(keysFolder)
        for (path, line) in rendered.publicKeyFiles where (try? Self.read(path)) != Array(line.utf8) {
            try Self.writeAtomically(path, Array(line.utf8), mode: 0o644)
        }
        for name in (try? Self.list(keysFolder)) ?? [] where name.hasSuffix(".pub") && rendered.publicKeyFiles[keysFolder + "/" + name] == nil {
            _ = unlink(keysFolder + "/" + name)
        }
        try Self.writeAtomically(generated, Array(rendered.text.utf8), mode: 0o600)
    }

    /// Puts the Include line first in ~/.ssh/config; false when it already was.
    func addInclude() throws -> Bool {
        let line = Array(try includeLine().utf8)
        guard let old = try Self.read(userConfig) else {
            try Self.makeFolder(FolderOfPath(path: userConfig).parent)
            try Self.writeAtomically(userConfig, line, mode: 0o600)
            return true
        }
        if old.starts(with: line) { return false }
        try Self.writeAtomically(backup, old, mode: 0o600)
        try Self.writeAtomically(userConfig, line + old, mode: Self.mode(of: userConfig) ?? 0o600)
        return true
    }

    /// Removes the Include line from the top of ~/.ssh/config; false when it was not there.
    /// A file that held nothing else (hostbook created it) is removed.
    func removeInclude() throws -> Bool {
        let line = Array(try includeLine().utf8)
        guard let old = try Self.read(userConfig), old.starts(with: line) else { return false }
        let rest = Array(old.dropFirst(line.count))
        if rest.isEmpty {
            _ = unlink(userConfig)
        } else {
            try Self.writeAtomically(userConfig, rest, mode: Self.mode(of: userConfig) ?? 0o600)
        }
        return true
    }

    func removeGenerated() {
        for name in (try? Self.list(keysFolder)) ?? [] where name.hasSuffix(".pub") { _ = unlink(keysFolder + "/" + name) }
        _ = rmdir(keysFolder)
        _ = unlink(generated)
    }

    // MARK: The hook

    /// The commands whose success changes what the generated file says.
    static let refreshingCommands: Set<[String]> = [
        ["add"], ["edit"], ["remove"], ["import-tailscale"], ["import-ssh-config"],
        ["keys", "import"], ["keys", "generate"], ["keys", "remove"],
    ]

    /// After a successful command: rewrites the installed file when the command changes
    /// hosts or keys. A failure here is a warning; the command itself succeeded.
    static func refreshIfInstalled(after words: [String], _ inv: Invocation) {
        guard refreshingCommands.contains(words), !inv.args.flag("dry-run") else { return }
        let installed = InstalledSSHConfig(inv)
        guard installed.isInstalled else { return }
        do { try installed.writeGenerated(inv, warn: false) } catch let e as UserFacingError {
            inv.warn("could not rewrite \(installed.generated): \(e.message)")
        } catch {
            inv.warn("could not rewrite \(installed.generated): \(error)")
        }
    }

    // MARK: Files

    static func read(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw CLIError.failure("cannot read \(path.escapedForTerminal): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw CLIError.failure("cannot read \(path.escapedForTerminal): \(String(cString: strerror(errno)))") }
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    /// Written to a temporary file in the same folder, flushed, then renamed into place.
    static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t) throws {
        let temporary = path + ".hostbook-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw CLIError.failure("cannot write \(path.escapedForTerminal): \(String(cString: strerror(errno)))") }
        var offset = 0
        var failed = false
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; failed = true; break }
            offset += n
        }
        if !failed { failed = fchmod(fd, mode) != 0 || fsync(fd) != 0 }
        let why = String(cString: strerror(errno))
        close(fd)
        if failed || rename(temporary, path) != 0 {
            _ = unlink(temporary)
            throw CLIError.failure("cannot write \(path.escapedForTerminal): \(why)")
        }
    }

    /// Creates the folder (and missing parents) 0700.
    static func makeFolder(_ path: String) throws {
        let parent = FolderOfPath(path: path).parent
        if parent != path, parent != "/", access(parent, F_OK) != 0 { try makeFolder(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw CLIError.failure("cannot create \(path.escapedForTerminal): \(String(cString: strerror(errno)))")
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

/// The folder part of a path.
private struct FolderOfPath {
    let path: String
    var parent: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
