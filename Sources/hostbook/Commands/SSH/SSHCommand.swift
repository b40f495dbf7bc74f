// `hostbook ssh [--snippet NAME] [--print-config] [-l USER] [USER@]HOST [SSH-ARGS...]`: connects to a saved host
// with the system ssh, as hostbook's child (docs/openssh-behaviour.md, "The ssh process").
// While ssh runs, hostbook holds what the connection needs and no secret of it touches the disk:
//   * the configuration (-F) and each hop's public key (its IdentityFile, with
//     IdentitiesOnly), files in a private folder of the session (SessionFolder.swift);
//   * the keys of the target and of each jump host, served by an agent on a per-session
//     socket (0600, in a 0700 folder);
//   * the stored passwords, answered through SSH_ASKPASS (Sessions/Askpass/SSHAskpass.swift);
//   * host keys: KnownHostsCommand runs `hostbook known-hosts lookup` (SSHHostKeyLookup).
// The terminal's signals go to ssh (it is in the foreground process group; hostbook
// ignores SIGINT, SIGQUIT and SIGTSTP meanwhile and passes SIGTERM and SIGHUP on). When
// ssh ends, the sockets are removed, the keys wiped, and hostbook exits with ssh's status.
import CommandLineKit
import System
import HostStore
import Sessions
import Workflows

enum SSHCommand {
    static let all: [CommandSpec] = [spec, SSHHostKeyLookup.spec]

    static let spec = CommandSpec(
        ["ssh"], summary: "Connect to a saved host with ssh, using hostbook's keys, passwords and host keys",
        usage: "[--snippet NAME] [--print-config] [-l USER | --user USER] [[USER@]HOST [SSH-ARGS...]]",
        discussion: """
        Runs the system ssh (OpenSSH 8.5 or later) with a configuration made for HOST and its \
        jump hosts: each hop's hostname, port, user, key and trusted host keys. Keys are served \
        by an agent inside hostbook for as long as ssh runs; stored passwords answer ssh's \
        password prompt once. Host keys are checked against hostbook's known hosts only: a \
        changed or revoked key is refused by ssh, an unknown one is offered for approval on the \
        terminal (or refused with --no-input or without a terminal). Your ~/.ssh/config still \
        applies to everything hostbook does not set; ~/.ssh/known_hosts is not used.
        USER@HOST or -l USER (--user USER) logs in as USER instead of the saved user, for this \
        connection only, as ssh does (-l wins over USER@); the jump hosts keep their own users. \
        The stored password belongs to the saved user and is not sent for another one: ssh \
        asks for that user's password itself.
        Everything after HOST goes to ssh unchanged. ssh reads options there too, up to the \
        remote command: a user given among them (-l USER, -o User=USER) is the one ssh logs in \
        as, so hostbook plans for that user, as for -l before HOST. Once ssh has started, the \
        exit status is ssh's (255 for ssh's own errors, else the remote command's).

        Without HOST, on a terminal, a list of the saved hosts opens (name, user@hostname:port, \
        tags) and filters as you type (every word, in any of the three, ignoring case). Up and \
        Down (or Ctrl-P and Ctrl-N), PageUp, PageDown, Home and End move; Backspace, Ctrl-W and \
        Ctrl-U edit the filter; Enter connects exactly as 'hostbook ssh NAME' would; Esc, \
        Ctrl-C or Ctrl-G leaves without connecting, with exit status 130. Without a terminal, \
        or with --no-input, a missing HOST is a usage error (exit 2).
        """,
        positionals: [.optional("HOST", "A saved host's name, or USER@NAME; without it, on a terminal, the host picker opens", completes: SavedNames.hosts), .optional("SSH-ARGS...", "Passed to ssh unchanged")],
        options: [.value(.snippet, "NAME", "Run the saved snippet on the host, exactly as stored"),
                  .value(.user, "USER", "Log in as USER instead of the saved user (this connection only)", short: "l"),
                  .flag(.printConfig, "Print the generated ssh configuration (no secrets) and exit")],
        passesArgumentsAfterFirstPositional: true,
        run: run)

    static func run(_ inv: Invocation) throws {
        // No HOST: the picker (before anything else starts), then the same path as with one.
        let (name, user) = try SSHHostChoice.destination(inv)
        // `ssh -V` runs while the database is read.
        var probe = inv.args.flag(.printConfig) ? nil : try SSHClient.startProbe(environment: inv.environment)
        defer { if let unread = probe { _ = SSHClient.finish(unread) } }
        // The command's one database handle: the plan is read from it and the session's agent
        // reads it for each request (docs/architecture.md, "Counts that stay at their value").
        let (database, plan) = try HostStoreErrorPresentation.mapping {
            try SSHSession.plan(inv.workspace, name: name, user: user, snippetName: inv.args.value(.snippet))
        }
        let config = SSHSessionConfig(hostbookPath: try SSHPaths.executable(), databasePath: SSHPaths.absolute(inv.databasePath),
                                      noInput: inv.globals.noInput)
        if inv.args.flag(.printConfig) {
            // ssh_config text: SSHConfigWriter refuses a control character or line break in a value.
            inv.write(.raw(try SSHSession.printedConfig(plan, config: config)))
            return
        }
        if probe == nil { _ = try SSHClient.require(nil) }
        // Before any thread starts (threads inherit the mask): see SSHSession.run.
        SSHSession.blockWaitedSignals()
        let started = probe
        probe = nil
        let status = try SSHSessionLaunch.run(inv, plan: plan, database: database, config: config, client: { try SSHClient.require(started) },
                                              localUser: SSHSession.localUserName(), arguments: inv.args.trailing)
        throw ChildExitStatus(status: status)
    }
}

/// hostbook's exit status is ssh's once ssh has started.
struct ChildExitStatus: Error {
    let status: Int32
}

