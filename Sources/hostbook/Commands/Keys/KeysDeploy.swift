// `hostbook keys deploy KEY HOST [--keep-password]`: what ssh-copy-id does, through
// hostbook's own sessions: the steps are Workflows' KeyDeployment, each one `hostbook ssh`
// session (SSHSession) run here (the stored password answered through SSH_ASKPASS, the key
// served by the session's agent, or ssh's own prompt).
import CommandLineKit
import System
import Workflows
import HostStore
import Sessions

enum KeysDeploy {
    static let spec = CommandSpec(
        ["keys", "deploy"], changesHostsOrKeys: true,
        summary: "Install a key on a host's ~/.ssh/authorized_keys and switch the host to it (as ssh-copy-id)",
        usage: "KEY HOST [--keep-password]",
        discussion: """
        Logs in to HOST once as it is saved (its stored password, its key, or ssh's password \
        prompt on the terminal) and appends KEY's public line to ~/.ssh/authorized_keys, \
        creating ~/.ssh (0700) and the file (0600) when missing; a key already there is not \
        added twice. Then it logs in again with KEY alone, served by hostbook's agent, and \
        only when that works attaches KEY to HOST. The stored password is then deleted from \
        the vault, unless --keep-password is given. The server needs a POSIX sh, grep and tail \
        (as ssh-copy-id does). When a login fails, nothing saved changes (exit 1).
        """,
        positionals: [.required("KEY", "The key to install", completes: SavedNames.keys),
                      .required("HOST", "The saved host to install it on", completes: SavedNames.hosts)],
        options: [.flag(.keepPassword, "Keep the host's stored password after the key login works")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let keyName = inv.args.positional(0)!, hostName = inv.args.positional(1)!
        let keepPassword = inv.args.flag(.keepPassword)
        let deployment = try KeyDeployment(key: keyName, workspace: inv.workspace)
        let (ctx, key) = (deployment.context, deployment.key)
        var probe = try SSHClient.startProbe(environment: inv.environment)
        defer { if let unread = probe { _ = SSHClient.finish(unread) } }
        let plan = try HostStoreErrorPresentation.mapping {
            try SSHPlan.load(ctx.database, name: hostName, user: nil, snippetName: nil)
        }
        let host = plan.target.host
        let config = SSHSessionConfig(hostbookPath: try SSHPaths.executable(), databasePath: SSHPaths.absolute(inv.databasePath),
                                      noInput: inv.globals.noInput)
        let started = probe
        probe = nil
        let client = try SSHClient.require(started)
        SSHSession.blockWaitedSignals()
        let localUser = SSHSession.localUserName()
        let target = "\(host.user ?? localUser)@\(host.hostname):\(host.port)"
        // Without a stored password or key ssh would ask on the terminal: not with --no-input.
        let deployed = try deployment.deploy(plan, target: target, keepPassword: keepPassword,
                                             batchFirst: inv.globals.noInput && !plan.needsAskpass && !plan.needsAgent,
                                             workspace: inv.workspace) { plan, arguments in
            try session(plan, config, client, inv, database: ctx.database, localUser: localUser, arguments)
        }
        let (updated, added, passwordRemoved) = (deployed.host, deployed.added, deployed.passwordRemoved)
        if inv.json {
            inv.printJSON(.object([("host", .string(updated.name)), ("key", .string(key.name)), ("added", .bool(added)),
                                   ("verified", .bool(true)), ("password_removed", .bool(passwordRemoved)), ("auth", .string(updated.auth.rawValue))]))
        } else {
            inv.print(added ? "Added the key '\(key.name)' to ~/.ssh/authorized_keys on \(target)."
                            : "The key '\(key.name)' was already in ~/.ssh/authorized_keys on \(target).")
            inv.print("A login with it works; host '\(updated.name)' now uses the key '\(key.name)'"
                      + (passwordRemoved ? " and its stored password was deleted." : (updated.auth == .password ? " (its stored password is kept)." : ".")))
        }
    }

    /// One session with `arguments` after the destination: ssh's exit status (255 for its
    /// own errors, else the remote command's).
    private static func session(_ plan: SSHPlan, _ config: SSHSessionConfig, _ client: SSHClient, _ inv: Invocation,
                                database: HostDatabase, localUser: String, _ arguments: [String]) throws -> Int32 {
        // A key saved with --confirm asks on this terminal, as `hostbook ssh` does.
        try SSHSessionLaunch.run(inv, plan: plan, database: database, config: config, client: { client }, localUser: localUser, arguments: arguments)
    }
}
