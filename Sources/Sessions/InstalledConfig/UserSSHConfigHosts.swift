// The Host names the user's own ssh configuration defines, so that the installed file never
// shadows them. hostbook's Include is the first line of ~/.ssh/config and the first value
// ssh obtains wins, so a saved host with the name of one of the user's Host blocks would
// take that name over (its HostName, its keys, its pre-trusted host key).
//
// - Read as ssh reads it: ~/.ssh/config and every file it includes (SSHConfigLoader), through
//   the one reader of the user's files (SSHConfigFiles, rules `.definedHosts`): hostbook's
//   own installed file and folder left out, bounded as every load is (SSHConfigLoadLimits),
//   never blocking (a FIFO or a device is refused at open, where ssh would wait on it; a
//   folder is read as empty, as ssh's fopen and getline do).
// - Only literal names count (no `*`, no `?`, no `!`): a pattern such as `Host *` or
//   `Host *.corp` sets defaults for many hosts, and every saved host's own settings are
//   meant to come before those.
// - Compared byte for byte, as ssh compares: ssh.c main hands `options.host_arg`, the name
//   as typed, to process_config_files, and readconf.c's Host keyword matches it with
//   match.c match_pattern, which is case-sensitive (ssh lower-cases only the host name it
//   connects to, afterwards). `ssh GitLab` never reaches a `Host gitlab` block.
// - A ~/.ssh/config that cannot be opened (missing, a link to nothing, unreadable) defines
//   nothing: ssh.c process_config_files skips it too. An included file that cannot be read
//   is an error, as in readconf.c's Include.
public import SSHConfig

public struct UserSSHConfigHosts: Sendable {
    /// Name → where the user's configuration first defines it.
    public let definitions: [String: SSHConfigAlias]

    /// Reads `installation.userConfig` (~/.ssh/config) and its Includes, leaving out
    /// hostbook's installed file and folder.
    public static func read(_ installation: SSHConfigInstallation) throws -> UserSSHConfigHosts {
        let files = SSHConfigFiles(installation: installation, rules: .definedHosts)
        let config: SSHConfiguration
        do {
            config = try SSHConfigLoader.load(installation.userConfig, access: files.access)
        } catch let e where e.kind == .unreadable && e.file == installation.userConfig && files.rootUnopened {
            return UserSSHConfigHosts(definitions: [:])
        } catch {
            throw failure(error)
        }
        var definitions: [String: SSHConfigAlias] = [:]
        for alias in config.aliases where definitions[alias.name] == nil { definitions[alias.name] = alias }
        return UserSSHConfigHosts(definitions: definitions)
    }

    private static func failure(_ e: SSHConfigError) -> SessionRefusal {
        .userSSHConfigUnreadable(file: e.file, line: e.line, reason: e.message, tooLarge: e.kind == .tooLarge)
    }
}
