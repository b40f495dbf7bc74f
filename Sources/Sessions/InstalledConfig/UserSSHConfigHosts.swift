// The Host names the user's own ssh configuration defines, so that the installed file never
// shadows them. hostbook's Include is the first line of ~/.ssh/config and the first value
// ssh obtains wins, so a saved host with the name of one of the user's Host blocks would
// take that name over (its HostName, its keys, its pre-trusted host key).
//
// - Read as ssh reads it: ~/.ssh/config and every file it includes (SSHConfigLoader), except
//   hostbook's own installed file. Only read: bounded (64 MiB a file, 64 MiB and 1024 files
//   in all, whatever the Include globs fan out to) and never blocking (a FIFO or a device is
//   refused at open, with O_NONBLOCK, where ssh would wait on it; a folder is read as empty,
//   as ssh's fopen and getline do).
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
#if canImport(Glibc)
import Glibc
#endif
public import SSHConfig
import System

public struct UserSSHConfigHosts: Sendable {
    /// Name → where the user's configuration first defines it.
    public let definitions: [String: SSHConfigAlias]

    static let maxFileSize = 64 << 20
    static let maxTotalSize = 64 << 20
    static let maxFiles = 1024

    /// Reads `userConfig` (~/.ssh/config) and its Includes, leaving out `excluded` (hostbook's
    /// installed file, by path and by identity).
    public static func read(userConfig: String, home: String, excluding excluded: String) throws -> UserSSHConfigHosts {
        let reader = BoundedReader(excluded: excluded)
        let config: SSHConfiguration
        do {
            config = try SSHConfigLoader.load(userConfig, access: SSHConfigFileAccess(
                read: { path in try reader.read(path) },
                glob: { pattern in SSHConfigGlob.expand(pattern, home: home) }))
        } catch let e where e.kind == .unreadable && e.file == userConfig && reader.rootUnopened {
            return UserSSHConfigHosts(definitions: [:])
        } catch {
            throw failure(error)
        }
        var definitions: [String: SSHConfigAlias] = [:]
        for alias in config.aliases where definitions[alias.name] == nil { definitions[alias.name] = alias }
        return UserSSHConfigHosts(definitions: definitions)
    }

    private static func failure(_ e: SSHConfigError) -> SessionError {
        let place = e.line > 0 ? "'\(e.file.escapedForTerminal)' line \(e.line)" : "'\(e.file.escapedForTerminal)'"
        return SessionError.failed("cannot read your ssh configuration to find the hosts it defines: \(place): \(e.message.escapedForTerminal)",
                                   hint: "hostbook never writes a Host block that would override one of yours, so it needs to read them; fix the file (ssh refuses it too).")
    }

    /// The files the loader asks for, read whole within the bounds above.
    private final class BoundedReader {
        let excluded: String
        let excludedIdentity: (dev: UInt64, ino: UInt64)?
        var files = 0
        var total = 0
        /// The first file asked for (~/.ssh/config) could not be opened.
        var rootUnopened = false

        init(excluded: String) {
            self.excluded = excluded
            var st = stat()
            excludedIdentity = stat(excluded, &st) == 0 ? (UInt64(st.st_dev), UInt64(st.st_ino)) : nil
        }

        struct Refusal: Error, CustomStringConvertible {
            let description: String
        }

        func read(_ path: String) throws -> [UInt8] {
            let first = files == 0
            files += 1
            guard files <= UserSSHConfigHosts.maxFiles else { throw Refusal(description: "more than \(UserSSHConfigHosts.maxFiles) files are included") }
            if path == excluded { return [] }
            let fd: Int32
            let info: stat
            do { (fd, info) = try RegularFile.open(path) } catch {
                switch error {
                case .notRegular(let mode) where mode & S_IFMT == S_IFDIR: return []  // ssh reads a folder as an empty file
                case .notRegular: throw Refusal(description: "it is not a regular file")
                case .system(let why):
                    if first { rootUnopened = true }
                    throw Refusal(description: why)
                }
            }
            defer { close(fd) }
            if let id = excludedIdentity, UInt64(info.st_dev) == id.dev, UInt64(info.st_ino) == id.ino { return [] }
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n: Int
                do { n = try buffer.withUnsafeMutableBytes { try FileDescriptor(fd).read(into: $0) } } catch {
                    throw Refusal(description: "\(error)")
                }
                if n == 0 { return out }
                out += buffer[0..<n]
                total += n
                if out.count > UserSSHConfigHosts.maxFileSize { throw Refusal(description: "it is larger than 64 MiB") }
                if total > UserSSHConfigHosts.maxTotalSize { throw Refusal(description: "the configuration and its Includes are larger than 64 MiB") }
            }
        }
    }
}
