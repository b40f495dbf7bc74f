// The installed ssh configuration (`hostbook ssh-config --install`): the Include line is
// the first line of ~/.ssh/config, the generated file says what hostbook would write now,
// the standing agent answers, and `ssh -G NAME` resolves a saved host to hostbook's
// settings (KnownHostsCommand and IdentityAgent). A saved host left out because the
// user's own configuration names it in a Host line is one finding each (the user's block
// wins; hostbook never overrides it). Not installed: a note, no finding.
import HostStore
import Sessions
import System
import Workflows

enum InstalledSSHConfigCheck {
    static func run(_ inv: Invocation) -> DoctorResult {
        var r = DoctorResult()
        let installed = InstalledSSHConfig(workspace: inv.workspace)
        guard installed.isInstalled else {
            r.notes.append("ssh-config: not installed (hostbook ssh-config --install).")
            return r
        }
        let fix = "Run 'hostbook ssh-config --install'."
        let userConfig = (try? ConfigFiles.read(installed.userConfig)) ?? nil
        if let line = try? installed.includeLine(), let config = userConfig, config.starts(with: Array(line.utf8)) {
            r.notes.append("ssh-config: \(installed.userConfig) includes \(installed.generated) first.")
        } else {
            r.findings.append(DoctorFinding(check: "ssh-config.include", severity: .error,
                                            message: "\(installed.userConfig) does not include \(installed.generated) on its first line", fix: fix))
        }
        var rendered: StandingSSHConfig.Rendered?
        do { rendered = try installed.render(InstalledConfigRefresh.programs(inv)) } catch let e as UserFacingError {
            r.findings.append(DoctorFinding(check: "ssh-config.user-config", severity: .error, message: e.message.escapedForTerminal,
                                            fix: e.hint.map(\.escapedForTerminal) ?? "Fix \(installed.userConfig.escapedForTerminal)."))
        } catch {
            r.findings.append(DoctorFinding(check: "ssh-config.user-config", severity: .error, message: "\(error)", fix: fix))
        }
        // The generated file and the hosts added since (`added/`) hold the rendered blocks:
        // the same set, whatever the order the adds put them in.
        let current = rendered.map(installed.isCurrent) ?? false
        if current {
            r.notes.append("ssh-config: \(installed.generated) is current.")
        } else if rendered != nil {
            r.findings.append(DoctorFinding(check: "ssh-config.stale", severity: .warning,
                                            message: "\(installed.generated) is not what hostbook would write now", fix: fix))
        }
        for clash in rendered?.clashes ?? [] {
            r.findings.append(DoctorFinding(check: "ssh-config.clash", severity: .warning,
                                            message: "saved host '\(clash.host.escapedForTerminal)' is left out of \(installed.generated): \(clash.place.escapedForTerminal) has your own Host block for it",
                                            fix: "Rename the saved host ('hostbook edit \(ShellQuote.quote(clash.host).escapedForTerminal) --rename NEW'), or remove '\(clash.host.escapedForTerminal)' from your Host line at \(clash.place.escapedForTerminal)."))
        }
        if let socket = try? AgentSocket.defaultPath(environment: inv.environment) {
            if let pid = AgentSocket.runningAgent(at: socket) {
                r.notes.append("agent: running (pid \(pid)) at \(socket).")
            } else {
                r.findings.append(DoctorFinding(check: "agent.stopped", severity: .warning, message: "no hostbook agent is running at \(socket)",
                                                fix: "Run 'eval \"$(hostbook agent start)\"' or 'systemctl --user enable --now hostbook-agent.service'."))
            }
        }
        // A host the configuration holds: one left out resolves to the user's own block.
        if let name = rendered?.written.first, let exe = try? SSHPaths.executable() {
            // The files hold what hostbook would write (checked above, byte for byte) and ssh
            // would accept the generated file: ssh reads the user's configuration with the
            // host's own block and the shared lines for its names in place of the Include (SSHConfigInstallation.probeConfig),
            // not the whole file. Anything else: ssh reads the files themselves.
            let probe = current && installed.generatedPassesSSHPermissionCheck
                ? userConfig.flatMap { config in rendered.flatMap { try? installed.layout.probeConfig(userConfig: config, block: $0.standalone(0)) } } : nil
            let resolved = probe.flatMap { SSHResolvedConfig.sshG(probe: $0, name: name, environment: inv.environment) }
                ?? SSHResolvedConfig.sshG(config: installed.userConfig, name: name, environment: inv.environment)
            if resolved.contains("\nknownhostscommand \(exe) ") || resolved.hasPrefix("knownhostscommand \(exe) ") {
                r.notes.append("ssh-config: 'ssh -G \(name.escapedForTerminal)' resolves to hostbook's settings.")
            } else {
                r.findings.append(DoctorFinding(check: "ssh-config.resolve", severity: .error,
                                                message: "'ssh -G \(name.escapedForTerminal)' does not use hostbook's KnownHostsCommand; another setting wins",
                                                fix: "Keep the Include line first in \(installed.userConfig), then \(fix.lowercased())"))
            }
        }
        return r
    }
}
