// `hostbook keys deploy KEY HOST [--keep-password]`: what ssh-copy-id does, through
// hostbook's own sessions. Three steps, each one `hostbook ssh` session (SSHSession):
//   1. log in as the host is saved (its stored password answered through SSH_ASKPASS, its
//      key, or ssh's own prompt) and run AuthorizedKeysAppend's command, which appends the
//      public key to ~/.ssh/authorized_keys unless it is there;
//   2. log in again with that key only, served by the session's agent (no key file on
//      disk, no password), running `exit 0`;
//   3. only then attach the key to the host; the stored password is deleted from the vault
//      unless --keep-password.
// A failed step changes nothing saved; a key appended in step 1 stays on the server.
#if canImport(Glibc)
import Glibc
#endif
import Workflows
import HostStore
import KeyFormats
import Sessions
import Credentials

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
        positionals: [.required("KEY", "The key to install", completes: .keys),
                      .required("HOST", "The saved host to install it on", completes: .hosts)],
        options: [.flag(.keepPassword, "Keep the host's stored password after the key login works")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let keyName = inv.args.positional(0)!, hostName = inv.args.positional(1)!
        let keepPassword = inv.args.flag(.keepPassword)
        let (ctx, key) = try KeysContext.existingKey(inv.workspace, named: keyName)
        // A key kept for SSHSIG namespaces never logs in (the agents refuse it): refused
        // before anything is sent to the server.
        let namespaces = try KeySigningUse.load(ctx.database, key).namespaces
        if !namespaces.isEmpty {
            throw CLIError.rejected("the key '\(key.name.escapedForTerminal)' signs only in the namespaces \(namespaces.sorted().joined(separator: ", ").escapedForTerminal) and cannot log in to a server",
                                    hint: "Deploy another key, or lift the restriction with 'hostbook keys edit \(key.name.escapedForTerminal) --no-namespace'.")
        }
        let publicKey = try key.publicKey
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

        // 1. The key onto the server, logged in as the host is saved.
        var first = ["-T"]
        // Without a stored password or key ssh would ask on the terminal: not with --no-input.
        if inv.globals.noInput && !plan.needsAskpass && !plan.needsAgent { first += ["-o", "BatchMode=yes"] }
        let appended = try session(plan, config, client, inv, database: ctx.database, localUser: localUser,
                                   first + ["--", AuthorizedKeysAppend.remoteCommand(publicKey, comment: key.comment)])
        switch appended {
        case AuthorizedKeysAppend.appended, AuthorizedKeysAppend.alreadyPresent: break
        case 255:
            throw CLIError.failure("could not log in to '\(host.name)' (\(target)) to install the key; nothing was changed",
                                   hint: host.auth == .password
                                       ? "Check the stored password ('hostbook edit \(host.name) --password-stdin') and try again."
                                       : "Check that 'hostbook ssh \(host.name)' logs in, then try again.")
        default:
            throw CLIError.failure("could not add the key to ~/.ssh/authorized_keys on '\(host.name)' (the remote command exited with \(appended)); nothing was changed",
                                   hint: "The server needs a POSIX sh, grep and tail, and a writable home folder; see the messages above.")
        }

        // 2. A login with the key alone, through the session's agent.
        let verified = try session(plan.withKeyOnly(key), config, client, inv, database: ctx.database, localUser: localUser,
                                   ["-T", "-o", "BatchMode=yes", "-o", "PreferredAuthentications=publickey",
                                    "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no", "--", "exit 0"])
        guard verified == 0 else {
            throw CLIError.failure("the key '\(key.name)' is in ~/.ssh/authorized_keys on '\(host.name)', but a login with it failed; the host was not changed",
                                   hint: "The server may not read that file (AuthorizedKeysFile, StrictModes) or may not accept the key's type.")
        }

        // 3. The host uses the key from now on.
        var changes = HostChanges()
        changes.key = .set(key.name)
        if !keepPassword && host.auth == .password { changes.password = .clear }
        let db = try HostStoreAccess.openForWriting(inv)
        // CredentialStore owns the order: the row first, then the old password item.
        let updated = try CredentialStore(database: db).editHost(host.name, changes, password: nil).new
        let passwordRemoved = changes.password == .clear
        let added = appended == AuthorizedKeysAppend.appended
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
        let upstreams = try plan.upstreamSockets(database), databasePath = database.path
        let secrets = try SSHSecretsLoader { try plan.loadSecrets(localUser: localUser, upstreams: upstreams, databasePath: databasePath) }
        // A key saved with --confirm asks on this terminal, as `hostbook ssh` does.
        return try SSHSession(plan: plan, database: database, config: config, client: client, environment: inv.environment, secrets: secrets,
                              approver: SSHTerminalApprover.ifAllowed(noInput: inv.globals.noInput))
            .run(arguments: arguments)
    }
}
