// The system ssh that `hostbook ssh` runs: is it on PATH, which version, and does it
// support KnownHostsCommand (OpenSSH 8.5 or later)? A missing ssh is a warning (hostbook
// works without it, `hostbook ssh` does not); an older one too.
import HostStore
import Workflows

enum SSHClientCheck {
    static func run() -> DoctorResult {
        var r = DoctorResult()
        let client: SSHClient?
        do { client = try SSHClient.probe(environment: ProcessEnvironment.current()) } catch {
            client = nil
        }
        guard let client else {
            r.findings.append(DoctorFinding(check: "ssh.missing", severity: .warning, message: "ssh was not found on PATH; 'hostbook ssh' cannot connect",
                                            fix: "Install the openssh-client package (OpenSSH 8.5 or later)."))
            return r
        }
        let version = client.major == 0 ? "'\(client.banner.escapedForTerminal)'" : "OpenSSH \(client.versionText)"
        if client.supportsKnownHostsCommand {
            r.notes.append("ssh: \(client.path), \(version), supports KnownHostsCommand.")
        } else {
            r.findings.append(DoctorFinding(check: "ssh.version", severity: .warning,
                                            message: "\(client.path) is \(version), without KnownHostsCommand; 'hostbook ssh' needs OpenSSH 8.5 or later",
                                            fix: "Install a newer openssh-client, or put a newer ssh first on PATH."))
        }
        return r
    }
}
