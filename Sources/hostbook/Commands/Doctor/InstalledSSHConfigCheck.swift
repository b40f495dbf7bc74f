// The installed ssh configuration (`hostbook ssh-config --install`): the Include line is
// the first line of ~/.ssh/config, the generated file says what hostbook would write now,
// the standing agent answers, and `ssh -G NAME` resolves a saved host to hostbook's
// settings (KnownHostsCommand and IdentityAgent). Not installed: a note, no finding.
#if canImport(Glibc)
import Glibc
#endif
import HostStore

struct InstalledSSHConfigCheck: DoctorCheck {
    func run(_ c: DoctorContext) -> DoctorResult {
        var r = DoctorResult()
        guard let inv = c.invocation else { return r }
        let installed = InstalledSSHConfig(inv)
        guard installed.isInstalled else {
            r.notes.append("ssh-config: not installed (hostbook ssh-config --install).")
            return r
        }
        let fix = "Run 'hostbook ssh-config --install'."
        if let line = try? installed.includeLine(), let config = try? InstalledSSHConfig.read(installed.userConfig),
           config.starts(with: Array(line.utf8)) {
            r.notes.append("ssh-config: \(installed.userConfig) includes \(installed.generated) first.")
        } else {
            r.findings.append(DoctorFinding(check: "ssh-config.include", severity: .error,
                                            message: "\(installed.userConfig) does not include \(installed.generated) on its first line", fix: fix))
        }
        if let rendered = try? InstalledSSHConfig.render(inv, keysFolder: installed.keysFolder),
           (try? InstalledSSHConfig.read(installed.generated)) == Array(rendered.text.utf8) {
            r.notes.append("ssh-config: \(installed.generated) is current.")
        } else {
            r.findings.append(DoctorFinding(check: "ssh-config.stale", severity: .warning,
                                            message: "\(installed.generated) is not what hostbook would write now", fix: fix))
        }
        if let socket = try? AgentSocket.defaultPath(environment: inv.environment) {
            if let pid = AgentSocket.runningAgent(at: socket) {
                r.notes.append("agent: running (pid \(pid)) at \(socket).")
            } else {
                r.findings.append(DoctorFinding(check: "agent.stopped", severity: .warning, message: "no hostbook agent is running at \(socket)",
                                                fix: "Run 'eval \"$(hostbook agent start)\"' or 'systemctl --user enable --now hostbook-agent.service'."))
            }
        }
        if let host = (try? c.database?.hosts())??.first, let exe = try? SSHPaths.executable() {
            let resolved = Self.sshG(config: installed.userConfig, name: host.name)
            if resolved.contains("\nknownhostscommand \(exe) ") || resolved.hasPrefix("knownhostscommand \(exe) ") {
                r.notes.append("ssh-config: 'ssh -G \(host.name.escapedForTerminal)' resolves to hostbook's settings.")
            } else {
                r.findings.append(DoctorFinding(check: "ssh-config.resolve", severity: .error,
                                                message: "'ssh -G \(host.name.escapedForTerminal)' does not use hostbook's KnownHostsCommand; another setting wins",
                                                fix: "Keep the Include line first in \(installed.userConfig), then \(fix.lowercased())"))
            }
        }
        return r
    }

    /// `ssh -F CONFIG -G NAME`'s output (empty when ssh fails).
    static func sshG(config: String, name: String) -> String {
        func quoted(_ s: String) -> String { "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
        guard let pipe = popen("ssh -F \(quoted(config)) -G -- \(quoted(name)) 2>/dev/null </dev/null", "r") else { return "" }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        pclose(pipe)
        return String(decoding: out, as: UTF8.self)
    }
}
