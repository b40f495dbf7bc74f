// `hostbook ssh-config [--install | --uninstall]`: the ssh configuration that lets plain
// ssh, scp, sftp, rsync and git reach saved hosts with hostbook's keys (through the
// standing agent) and host keys (through KnownHostsCommand).
import CommandLineKit
import Sessions
import Workflows

enum SSHConfigCommand {
    static let all: [CommandSpec] = [spec]

    static let spec = CommandSpec(
        ["ssh-config"], summary: "Print or install the ssh configuration for every saved host",
        discussion: """
        Without options, prints one Host block per saved host (the alias is the hostbook name) with \
        its own lines: HostName, Port, User, ProxyJump by alias, the host's public key as \
        IdentityFile with IdentitiesOnly; then the lines every host shares, once per 200 names on \
        Host lines listing them: hostbook as the only source of host keys (KnownHostsCommand, \
        GlobalKnownHostsFile none, StrictHostKeyChecking yes) with the hosts' known_hosts files for \
        host-key rotation (UserKnownHostsFile .../known_hosts/%h_%p, UpdateHostKeys yes; a host \
        name %h cannot stand for has its own line) and the standing agent's socket as \
        IdentityAgent. A host \
        whose name ssh_config cannot express is skipped with a warning, and so is a host whose \
        name a Host line of your own ~/.ssh/config (or a file it includes) names literally: \
        your block keeps its name.
        --install writes it to $XDG_CONFIG_HOME/hostbook/ssh_config (rewritten by every later \
        command that changes hosts or keys; 'add' writes only the new host's block and the shared \
        lines for it, to a file in added/ beside it that the file includes) and puts one Include line for it at the top of \
        ~/.ssh/config, keeping the rest byte for byte and a backup in ~/.ssh/config.hostbook-backup; \
        a ~/.ssh/config that is a symbolic link stays one (its target is rewritten). \
        --uninstall removes exactly that line and the generated file; with --restore it also gives \
        back the Host blocks 'import-ssh-config --take-over' commented out (each file from its \
        hidden .FILE.hostbook-takeover backup, byte for byte; refused, with nothing changed, when \
        the file was edited since).
        """,
        options: [.flag(.install, "Write the file and include it from ~/.ssh/config"),
                  .flag(.uninstall, "Remove the Include line and the generated file"),
                  .flag(.restore, "With --uninstall: give back the Host blocks taken over by import-ssh-config --take-over")]
    ) { inv in
        try inv.args.exclusive(.install, .uninstall)
        let installed = InstalledSSHConfig(workspace: inv.workspace)
        if inv.args.flag(.restore) && !inv.args.flag(.uninstall) {
            throw CLIError.usage("--restore goes with --uninstall", hint: "Run 'hostbook ssh-config --uninstall --restore'.")
        }
        if inv.args.flag(.uninstall) {
            let done = try installed.uninstall(restoring: inv.args.flag(.restore))
            inv.print(done.removed ? "Removed the Include line from \(installed.userConfig) and \(installed.generated)."
                                   : "hostbook's ssh configuration was not installed.")
            let takeOver = SSHConfigTakeOverFiles(installed: installed)
            try takeOver.restore(done.restores)
            for r in done.restores { inv.print("Gave back your Host blocks in \(r.path) (from \(SSHConfigTakeOverFiles.backup(of: r.path))).") }
            if inv.args.flag(.restore) && done.restores.isEmpty { inv.print("No Host blocks of yours were taken over; nothing to give back.") }
            if !inv.args.flag(.restore), takeOver.hasBackups {
                inv.note("Your Host blocks taken over by 'import-ssh-config --take-over' stay commented out; 'hostbook ssh-config --uninstall --restore' gives them back.")
            }
            return
        }
        if inv.args.flag(.install) {
            let done = try installed.install(try InstalledConfigRefresh.programs(inv)) { rendered in
                for w in rendered.warnings { inv.warn("\(w)") }
            }
            for hint in takeOverHints(done.takeOver) { inv.warn(hint) }
            // What was done is the command's output (stdout); warnings and errors go to stderr.
            if done.includeAdded {
                inv.print("Wrote \(installed.generated) and included it from the top of \(installed.userConfig).")
            } else {
                inv.print("Wrote \(installed.generated); \(installed.userConfig) already includes it.")
            }
            // The keys reach plain ssh through the standing agent: say how to start it unless
            // it already answers at the socket the configuration names.
            if StandingAgentSocket.runningAgent(at: try StandingAgentSocket.defaultPath(environment: inv.environment)) == nil {
                inv.print("Start the agent with 'eval \"$(hostbook agent start)\"', or 'systemctl --user enable --now hostbook-agent.service'.")
            }
            return
        }
        let rendered = try installed.render(try InstalledConfigRefresh.programs(inv))
        for w in rendered.warnings { inv.warn("\(w)") }
        // ssh_config text: SSHConfigWriter refuses a control character or line break in a value.
        inv.write(.raw(rendered.text))
    }

    /// What `--install` says about the saved hosts it left to the user's own Host blocks: the
    /// exact lines a take-over comments out, with the command, and the blocks it would
    /// leave, with why.
    static func takeOverHints(_ changes: [SSHConfigTakeOverFiles.FileChange]) -> [TerminalText] {
        var out: [TerminalText] = []
        let taking = changes.filter { !$0.plan.taken.isEmpty }
        if !taking.isEmpty {
            let places = taking.map { "'\($0.path.escapedForTerminal)' \(SSHConfigImportTakeOver.linesText($0.plan.taken.map(\.line)))" }
            out.append("your own Host blocks at \(raw: places.joined(separator: ", ")) keep hostbook's configuration from serving their hosts; "
                       + "'hostbook import-ssh-config --take-over' comments them out (keeping a backup; 'hostbook ssh-config --uninstall --restore' undoes it)")
        }
        for change in changes {
            for left in change.plan.left {
                out.append("your Host block at '\(change.path)' line \(left.line) keeps its hosts from hostbook's configuration and is one to edit by hand: \(left.reason)")
            }
        }
        return out
    }
}
