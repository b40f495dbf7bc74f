// What `ssh -G NAME` resolves for doctor's check of the installed ssh configuration: ssh run
// on a probe configuration given on its stdin, or on the user's own file.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum SSHResolvedConfig {
    /// `ssh -F /dev/stdin -G NAME` with `probe` on its stdin: its output (empty when ssh
    /// fails), or nil when it cannot be run that way (no ssh on PATH, or a probe larger
    /// than the pipe holds: it is written whole before ssh starts).
    public static func sshG(probe: [UInt8], name: String, environment: [String: String]) -> String? {
        guard let ssh = SSHClient.find(environment: environment), let input = try? UnixPipe() else { return nil }
        guard probe.count <= input.capacity else { input.close(); return nil }
        let written = (try? probe.withUnsafeBytes { try FileDescriptor(input.writeEnd).writeAll($0) }) != nil
        close(input.writeEnd)
        defer { close(input.readEnd) }
        guard written else { return nil }
        let options = Spawn.Options(fileActions: [.duplicate(input.readEnd, to: STDIN_FILENO)],
                                    environment: Spawn.Options.environment(environment))
        guard let result = try? CapturedProcess.run(ssh, ["ssh", "-F", "/dev/stdin", "-G", "--", name], options: options, limit: 1 << 20),
              result.status.exitCode == 0 else { return "" }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// `ssh -F CONFIG -G NAME`'s output (empty when ssh cannot be run; what it wrote when
    /// it fails), ssh found on `environment`'s PATH.
    public static func sshG(config: String, name: String, environment: [String: String]) -> String {
        guard let ssh = SSHClient.find(environment: environment),
              let result = try? CapturedProcess.run(ssh, ["ssh", "-F", config, "-G", "--", name],
                                                    options: Spawn.Options(environment: Spawn.Options.environment(environment)),
                                                    limit: 1 << 20) else { return "" }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
