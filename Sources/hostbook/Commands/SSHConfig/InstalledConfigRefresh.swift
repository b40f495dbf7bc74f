// After a successful command that changes hosts or keys (its spec says so), the installed
// ssh configuration is written again when it is installed (Workflows' InstalledSSHConfig.refresh):
// after `add`, only the new host's file. A failure here is a warning; the command itself
// succeeded. Only the hosts left out for the user's own blocks are told again: the user
// has to act on them; the other warnings were given at --install.
import CommandLineKit
import Sessions
import Workflows

enum InstalledConfigRefresh {
    /// What the blocks name: this program's own path and the standing agent's socket.
    static func programs(_ inv: Invocation) throws -> InstalledSSHConfig.Programs {
        InstalledSSHConfig.Programs(hostbook: try SSHPaths.executable(), agentSocket: try StandingAgentSocket.defaultPath(environment: inv.environment))
    }

    static func after(_ spec: CommandSpec, _ inv: Invocation) {
        guard spec.changesHostsOrKeys, !inv.args.sharedFlag(.dryRun) else { return }
        let installed = InstalledSSHConfig(workspace: inv.workspace)
        guard installed.isInstalled else { return }
        do {
            let added = spec.words == ["add"] ? inv.args.positional(0) : nil
            let rendered = try installed.refresh(try programs(inv), added: added)
            for clash in rendered.clashes { inv.warn("\(clash.warning)") }
        } catch let e as UserFacingError {
            inv.warn("could not rewrite \(installed.generated): \(e.message)")
        } catch {
            inv.warn("could not rewrite \(installed.generated): \(error)")
        }
    }
}
