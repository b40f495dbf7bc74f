// Where the installed ssh configuration (`hostbook ssh-config --install`) lives and what it
// holds:
//   * `$XDG_CONFIG_HOME/hostbook/ssh_config` (default ~/.config; a relative
//     XDG_CONFIG_HOME is ignored, as the XDG Base Directory specification says), with the
//     public key files in `keys/` beside it;
//   * included by exactly one `Include` line at the very top of ~/.ssh/config, whose
//     previous content is kept as ~/.ssh/config.hostbook-backup;
//   * one Host block per saved host with its own lines, then the lines every host shares
//     once per group of names (StandingSSHConfig), leaving out every host the user's own
//     configuration names (UserSSHConfigHosts);
//   * the hosts added since the file was last written whole, one file each in `added/`
//     beside it, named by the host's row id and included by a glob at the end of the file
//     (after `Match all`, so that the Include belongs to no Host block and a block of the
//     file itself wins over an older copy there). Adding a host writes only its own file,
//     whatever the number of saved hosts; writing the file whole empties the folder.
// Writing the files is Workflows' (InstalledSSHConfig, with its atomic file writer).
import HostStore
import SSHConfig

public struct SSHConfigInstallation: Sendable {
    public let home: String
    /// `$XDG_CONFIG_HOME/hostbook`.
    public let folder: String
    public var generated: String { folder + "/ssh_config" }
    public var keysFolder: String { folder + "/keys" }
    /// The hosts added since the generated file was written whole, one file each.
    public var addedFolder: String { folder + "/added" }
    /// The known_hosts files ssh is given for host-key rotation, one per host name and port.
    public var knownHosts: KeptKnownHosts { KeptKnownHosts(installation: self) }
    /// Written whole once the folder holds this many files, so that ssh, which opens every
    /// included file each time it reads its configuration, opens a bounded number.
    public static let maxAddedFiles = 64
    /// ~/.ssh/config.
    public let userConfig: String
    public var backup: String { userConfig + ".hostbook-backup" }

    public init(home: String, environment: [String: String]) {
        self.home = home
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        folder = configHome + "/hostbook"
        userConfig = home + "/.ssh/config"
    }

    /// The line that includes the generated file, newline included; a path ssh_config
    /// cannot hold is a `.failed` SessionError.
    public func includeLine() throws -> String {
        do {
            return "Include " + (try SSHConfigWriter.quote(generated, keyword: "Include")) + "\n"
        } catch let e as SSHConfigWriterError {
            throw SessionError.failed("the path \(generated) cannot be written in ssh_config: \(e.reason)",
                                      hint: "Set XDG_CONFIG_HOME to a plainer folder.")
        }
    }

    /// The lines at the end of the generated file that include the added hosts' files.
    public func addedInclude() throws -> String {
        do {
            // ssh hands the value to glob(3): a `*`, `?`, `[` or backslash of the folder's own
            // name is escaped, so that only `*.conf` is a pattern.
            var folder = ""
            for c in addedFolder { if "*?[\\".contains(c) { folder += "\\" }; folder.append(c) }
            return "\nMatch all\nInclude " + (try SSHConfigWriter.quote(folder + "/*.conf", keyword: "Include")) + "\n"
        } catch let e as SSHConfigWriterError {
            throw SessionError.failed("the path \(addedFolder) cannot be written in ssh_config: \(e.reason)",
                                      hint: "Set XDG_CONFIG_HOME to a plainer folder.")
        }
    }

    /// What ssh reads for one saved host through the installed configuration, without the
    /// other hosts' blocks (`hostbook doctor` hands it to `ssh -G`, whose parse of the whole
    /// generated file grows with the number of hosts): ~/.ssh/config's text (`userConfig`)
    /// with its first line, the Include of the generated file, replaced by what that file
    /// holds for the host — the header, the host's `block` (StandingSSHConfig.Rendered.standalone:
    /// its own block and the shared lines for its names), then `Match all` and the Include
    /// of `added/`, as at the file's end. The other blocks of the file name other hosts, so
    /// they take no part in this host's settings (readconf.c: a Host line matches its
    /// literal names only; after an Include the including file's Match state is restored,
    /// which `Match all` gives here too). Nil when `userConfig` does not start with the
    /// Include line. Its size does not depend on the number of saved hosts.
    public func probeConfig(userConfig: [UInt8], block: String) throws -> [UInt8]? {
        let line = Array(try includeLine().utf8)
        guard userConfig.starts(with: line) else { return nil }
        return Array((StandingSSHConfig.header + "\n" + block + (try addedInclude())).utf8) + userConfig.dropFirst(line.count)
    }

    /// The file name in `addedFolder` of the host with row id `id`: the id zero-padded, so
    /// that ssh's sorted glob reads the files in the order the hosts were added.
    public static func addedFileName(id: Int64) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(0, 19 - digits.count)) + digits + ".conf"
    }

    /// The block of the host called `name`, rendered as the whole configuration would
    /// render it, from the host and its jump hosts alone: whether a host is written depends
    /// only on itself and its chain of jump hosts (its name against the user's Host blocks,
    /// the chain's length, its jump host being written, what ssh_config can express). Nil
    /// when there is no such host in `database` (the caller's handle). Reads a bounded
    /// number of rows, whatever the number of saved hosts.
    public func renderOne(named name: String, database: HostDatabase, block: SSHHostBlock, agentSocket: String) throws -> (rendered: StandingSSHConfig.Rendered, host: Host)? {
        guard let host = try database.host(named: name) else { return nil }
        var chain = [host]
        var seen: Set<String> = [host.name.lowercased()]
        while chain.count <= JumpChain.maxHosts, let jump = chain.last!.jump, !seen.contains(jump.lowercased()),
              let next = try database.host(named: jump) {
            chain.append(next)
            seen.insert(next.name.lowercased())
        }
        let store = KeyStore(database: database)
        var keys: [StoredKey] = []
        for keyName in Set(chain.compactMap { $0.key?.lowercased() }) {
            if let key = try store.find(name: keyName) { keys.append(key) }
        }
        let userHosts = try UserSSHConfigHosts.read(self)
        let rendered = StandingSSHConfig(block: block, agentSocket: agentSocket, keysFolder: keysFolder, knownHosts: knownHosts)
            .render(hosts: chain, keys: keys, userHosts: userHosts.definitions)
        return (rendered, host)
    }

    /// The configuration for every saved host in `database` (the caller's handle; nil, no
    /// database yet: no hosts), rendered (nothing written), without the hosts the user's
    /// own ~/.ssh/config defines. `block` says how hostbook names itself in each block;
    /// `agentSocket` is the standing agent's.
    public func render(database: HostDatabase?, block: SSHHostBlock, agentSocket: String) throws -> StandingSSHConfig.Rendered {
        let userHosts = try UserSSHConfigHosts.read(self)
        let hosts = try database?.hosts() ?? []
        let keys = try database.map { try KeyStore(database: $0).list() } ?? []
        return StandingSSHConfig(block: block, agentSocket: agentSocket, keysFolder: keysFolder, knownHosts: knownHosts)
            .render(hosts: hosts, keys: keys, userHosts: userHosts.definitions)
    }
}
