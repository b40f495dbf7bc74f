// The installed ssh configuration (`ssh-config --install`): the Include line is the first
// line of ~/.ssh/config, the generated file says what hostbook would write now, the standing
// agent answers, and `ssh -G NAME` resolves a saved host to hostbook's settings
// (KnownHostsCommand and IdentityAgent). A saved host left out because the user's own
// configuration names it in a Host line is one finding each (the user's block wins;
// hostbook never overrides it). Not installed: a note, no finding.
import Sessions
import System

public struct InstalledSSHConfigCheck {
    public let workspace: Workspace
    /// What the blocks name (this program's path, the agent's socket); its error is a finding.
    public let programs: () throws -> InstalledSSHConfig.Programs
    /// The standing agent's socket, nil when its folder cannot be made (nothing is said);
    /// asked only when the configuration is installed (finding it prepares hostbook's socket
    /// folder, which a doctor of nothing installed must not).
    public let agentSocket: () -> String?
    /// The pid of the agent answering at a socket, nil when none does.
    public let runningAgent: (String) -> Int32?

    public init(workspace: Workspace, programs: @escaping () throws -> InstalledSSHConfig.Programs,
                agentSocket: @escaping () -> String?, runningAgent: @escaping (String) -> Int32?) {
        self.workspace = workspace
        self.programs = programs
        self.agentSocket = agentSocket
        self.runningAgent = runningAgent
    }

    public func run() -> [DoctorObservation] {
        let installed = InstalledSSHConfig(workspace: workspace)
        guard installed.isInstalled else { return [.sshConfigNotInstalled] }
        var out: [DoctorObservation] = []
        let userConfig = (try? ConfigFiles.read(installed.userConfig)) ?? nil
        if let line = try? installed.includeLine(), let config = userConfig, config.starts(with: Array(line.utf8)) {
            out.append(.sshConfigIncluded(userConfig: installed.userConfig, generated: installed.generated))
        } else {
            out.append(.sshConfigIncludeMissing(userConfig: installed.userConfig, generated: installed.generated))
        }
        var rendered: StandingSSHConfig.Rendered?
        var hostbook: String?
        do {
            let programs = try programs()
            hostbook = programs.hostbook
            rendered = try installed.render(programs)
        } catch {
            out.append(.sshConfigUnrenderable(userConfig: installed.userConfig, error: error))
        }
        // The generated file and the hosts added since (`added/`) hold the rendered blocks:
        // the same set, whatever the order the adds put them in.
        let current = rendered.map(installed.isCurrent) ?? false
        if current {
            out.append(.sshConfigCurrent(generated: installed.generated))
        } else if rendered != nil {
            out.append(.sshConfigStale(generated: installed.generated))
        }
        for clash in rendered?.clashes ?? [] {
            out.append(.sshConfigClash(host: clash.host, place: clash.place, generated: installed.generated))
        }
        if let socket = agentSocket() {
            out.append(runningAgent(socket).map { .agentRunning(pid: $0, socket: socket) } ?? .agentStopped(socket: socket))
        }
        // A host the configuration holds: one left out resolves to the user's own block.
        if let name = rendered?.written.first, let exe = hostbook {
            // The files hold what hostbook would write (checked above, byte for byte) and ssh
            // would accept the generated file: ssh reads the user's configuration with the
            // host's own block and the shared lines for its names in place of the Include
            // (SSHConfigInstallation.probeConfig), not the whole file. Anything else: ssh
            // reads the files themselves.
            let probe = current && installed.generatedPassesSSHPermissionCheck
                ? userConfig.flatMap { config in rendered.flatMap { try? installed.layout.probeConfig(userConfig: config, block: $0.standalone(0)) } } : nil
            let resolved = probe.flatMap { SSHResolvedConfig.sshG(probe: $0, name: name, environment: workspace.environment) }
                ?? SSHResolvedConfig.sshG(config: installed.userConfig, name: name, environment: workspace.environment)
            if resolved.contains("\nknownhostscommand \(exe) ") || resolved.hasPrefix("knownhostscommand \(exe) ") {
                out.append(.sshConfigResolves(name: name))
            } else {
                out.append(.sshConfigNotResolving(name: name, userConfig: installed.userConfig))
            }
        }
        return out
    }
}
