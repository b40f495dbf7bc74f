// Where the installed ssh configuration (`hostbook ssh-config --install`) lives and what it
// holds:
//   * `$XDG_CONFIG_HOME/hostbook/ssh_config` (default ~/.config; a relative
//     XDG_CONFIG_HOME is ignored, as the XDG Base Directory specification says), with the
//     public key files in `keys/` beside it;
//   * included by exactly one `Include` line at the very top of ~/.ssh/config, whose
//     previous content is kept as ~/.ssh/config.hostbook-backup;
//   * one Host block per saved host (StandingSSHConfig), leaving out every host the user's
//     own configuration names (UserSSHConfigHosts).
// Writing the files is the executable's (InstalledSSHConfig, with its atomic file writer).
import HostStore
import SSHConfig

public struct SSHConfigInstallation: Sendable {
    public let home: String
    /// `$XDG_CONFIG_HOME/hostbook`.
    public let folder: String
    public var generated: String { folder + "/ssh_config" }
    public var keysFolder: String { folder + "/keys" }
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
            throw SessionError.failed("the path \(generated.escapedForTerminal) cannot be written in ssh_config: \(e.reason)",
                                      hint: "Set XDG_CONFIG_HOME to a plainer folder.")
        }
    }

    /// The configuration for every saved host in the database at `databasePath` (none there:
    /// no hosts), rendered (nothing written), without the hosts the user's own
    /// ~/.ssh/config defines. `block` says how hostbook names itself in each block;
    /// `agentSocket` is the standing agent's.
    public func render(databasePath: String, block: SSHHostBlock, agentSocket: String) throws -> StandingSSHConfig.Rendered {
        let userHosts = try UserSSHConfigHosts.read(self)
        let database = try HostDatabase.openForReading(path: databasePath)
        let hosts = try database?.hosts() ?? []
        let keys = try database.map { try KeyStore(database: $0).list() } ?? []
        return StandingSSHConfig(block: block, agentSocket: agentSocket, keysFolder: keysFolder)
            .render(hosts: hosts, keys: keys, userHosts: userHosts.definitions)
    }
}
