// One running `hostbook ssh` session: the agent, the askpass socket, the session's files
// and ssh itself as hostbook's child, waited for with sigwait (SIGCHLD; SIGTERM and SIGHUP
// are passed on to ssh). When ssh ends, everything is stopped and removed, the host-key
// rotations ssh learned are taken into the store, and what happened comes back as data
// (SSHSessionOutcome) for the executable to say.
#if canImport(Glibc)
import Glibc
#endif
import System
import Agent
import KeyFormats
import SecureMemory
public import HostStore
public import Sessions

/// One running session: the agent, the askpass socket, the session's files and ssh itself.
public struct SSHSession {
    /// The command's workspace: the plan's database is its handle, and a rotation ssh learned
    /// is written through it (opened for writing only then).
    let workspace: Workspace
    let plan: SSHPlan
    /// The database the plan was read from, the session's one handle: its agent and its
    /// askpass read it for each request and open nothing.
    let database: HostDatabase
    let config: SSHSessionConfig
    let client: SSHClient
    let secrets: SSHSecretsLoader
    /// Who answers for a key saved with `--confirm` (the terminal); nil: such a key is refused.
    let approver: (any AgentApprover)?
    /// The words of what the agent's requester is told.
    let wording: any AgentWording
    var environment: [String: String] { workspace.environment }

    public init(workspace: Workspace, plan: SSHPlan, database: HostDatabase, config: SSHSessionConfig, client: SSHClient,
                secrets: SSHSecretsLoader, approver: (any AgentApprover)?, wording: any AgentWording) {
        self.workspace = workspace
        self.plan = plan
        self.database = database
        self.config = config
        self.client = client
        self.secrets = secrets
        self.approver = approver
        self.wording = wording
    }

    /// The plan for saved host `name` (`user`: the login user for this connection, if not
    /// the saved one), read from the workspace's database, and that database, which the
    /// session keeps. No database yet: no such host.
    public static func plan(_ workspace: Workspace, name: String, user: String?, snippetName: String?) throws -> (HostDatabase, SSHPlan) {
        guard let database = try workspace.existingDatabase() else { throw SessionRefusal.hostNotFound(name: name, nearest: nil) }
        return (database, try SSHPlan.load(database, name: name, user: user, snippetName: snippetName))
    }

    /// The configuration `--print-config` shows: the session's, with placeholders where a
    /// session's paths would be.
    public static func printedConfig(_ plan: SSHPlan, config: SSHSessionConfig) throws -> String {
        var paths = SSHSessionConfig.Paths()
        if plan.needsAgent {
            paths.agentSocket = "$XDG_RUNTIME_DIR/hostbook/ssh-SESSION.sock"
            for (i, hop) in plan.hops.filter({ $0.key != nil }).enumerated() {
                paths.publicKeyFiles[hop.alias] = "$XDG_RUNTIME_DIR/hostbook/session-XXXXXX/hop\(i + 1).pub"
            }
        }
        return try config.render(plan, paths: paths)
    }

    /// The signals hostbook waits for with sigwait while ssh runs.
    public static var waitedSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGCHLD, SIGTERM, SIGHUP] { sigaddset(&set, s) }
        return set
    }

    /// Blocks the waited signals in this thread and so in every thread started after it;
    /// a thread that left SIGCHLD unblocked could take it away from the sigwait.
    public static func blockWaitedSignals() {
        var set = waitedSignals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Runs ssh with `arguments` after the destination, until it ends.
    public func run(arguments: [String]) throws -> SSHSessionOutcome {
        // Signals: the waited ones are blocked (blockWaitedSignals), the terminal's are
        // ignored while ssh runs; ssh gets all of them back at their defaults.
        var waited = Self.waitedSignals
        for s in [SIGINT, SIGQUIT, SIGTSTP] { signal(s, SIG_IGN) }
        defer { for s in [SIGINT, SIGQUIT, SIGTSTP] { signal(s, SIG_DFL) } }

        let folder: String
        do { folder = try PrivateSocketDirectory.prepare(environment: environment) } catch {
            throw SSHSessionRefusal.socketFolderUnavailable(reason: "\(error)")
        }
        var paths = SSHSessionConfig.Paths()
        let files = try SessionFolder(in: folder)
        defer { files.remove() }
        // Hops that learn on their first use: ssh asks its own question, answered by the
        // askpass from what the user told hostbook's lookup (SSHFirstUseConfirmation).
        let firstUseHops = Self.firstUseHops(plan, arguments: arguments, noInput: config.noInput)
        paths.firstUseHops = firstUseHops
        var agent: AgentServer?
        var askpass: SSHAskpass.Server?
        defer {
            agent?.stop()
            askpass?.stop()
        }
        do {
            let secrets = self.secrets
            if plan.needsAgent {
                let socket = try PrivateSocketDirectory.uniquePath(in: folder, prefix: "ssh")
                agent = try AgentServer(socketPath: socket, policy: SSHAgentPolicy.make(plan: plan, database: database,
                                                                                       client: client, secrets: secrets, approver: approver,
                                                                                       wording: wording))
                paths.agentSocket = socket
                for hop in plan.hops {
                    guard let publicKey = hop.publicKey else { continue }
                    let number = paths.publicKeyFiles.count + 1
                    paths.publicKeyFiles[hop.alias] = try files.write("hop\(number).pub", Array((publicKey.line(comment: hop.alias) + "\n").utf8))
                    // Not `hopN-cert.pub`, which ssh would load by itself beside IdentityFile hopN.
                    if let certificate = hop.key?.certificate, certificate.role == .user {
                        paths.certificateFiles[hop.alias] = try files.write("hop\(number).cert.pub",
                                                                            Array((certificate.line(comment: hop.alias) + "\n").utf8))
                    }
                }
            }
            if plan.needsAskpass || !firstUseHops.isEmpty {
                let confirmation = firstUseHops.isEmpty ? nil : SSHFirstUseConfirmation(
                    database: database,
                    lookups: plan.hops.filter { firstUseHops.contains($0.alias) }.map { HostLookupName(host: $0.host.hostname, port: $0.host.port) })
                askpass = try SSHAskpass.Server(folder: folder, passwords: { (try? secrets.wait().get())?.passwords ?? [] },
                                                confirmation: confirmation)
            }
        } catch let e as SocketError {
            throw SSHSessionRefusal.agentNotStarted(reason: e.description)
        }
        // Each hop with host keys the trust core accepts gets a script that answers ssh for
        // those keys without starting hostbook (SSHKnownHostsScript).
        let hostBlock = SSHHostBlock(hostbookPath: config.hostbookPath, databasePath: config.databasePath, noInput: config.noInput)
        for hop in plan.hops where !hop.acceptedHostKeys.isEmpty {
            let script = SSHKnownHostsScript(lookupCommand: hostBlock.knownHostsCommand(sshConfirms: firstUseHops.contains(hop.alias)),
                                             host: hop.host.hostname, port: hop.host.port, accepted: hop.acceptedHostKeys)
            paths.knownHostsScripts[hop.alias] = try files.write("hop\(paths.knownHostsScripts.count + 1)-known-hosts.sh", Array(script.text.utf8))
        }
        // Each hop whose rotation the rules allow gets the known_hosts file ssh learns it in
        // (SSHHostKeyRotation); the store takes ssh's edits after ssh ends.
        for hop in plan.hops where SSHHostKeyRotation.allowed(sshArguments: arguments) {
            guard let rows = hop.rotation ?? (firstUseHops.contains(hop.alias) ? [] : nil) else { continue }
            paths.rotationFiles[hop.alias] = try files.write("hop\(paths.rotationFiles.count + 1)-known_hosts",
                                                             Array(HostKeyRotation.knownHostsText(rows).utf8))
        }
        let configFile = try files.write("ssh_config", Array(try config.render(plan, paths: paths).utf8))
        // The target learns its rotation: ssh's log comes through hostbook, which reads it
        // for the proof of the keys the server announces (SSHHostKeyProofLog).
        var logRelay: SSHLogRelay?
        if paths.rotationFiles[plan.target.alias] != nil, SSHHostKeyProofLog.allowed(sshArguments: arguments) {
            logRelay = try SSHLogRelay(path: files.path + "/ssh.log", showsForcedLines: SSHHostKeyProofLog.verbose(sshArguments: arguments))
        }
        defer { _ = logRelay?.finish() }

        var argv = [client.path, "-F", configFile]
        if let logRelay { argv += ["-E", logRelay.path, "-o", "LogVerbose=" + SSHHostKeyProofLog.logVerbose] }
        argv += [plan.target.alias] + arguments
        // The snippet is the remote command, never an option: ssh parses options after the
        // destination too (ssh.c goes back to getopt for the words after the host) until
        // `--`, so a snippet beginning with '-' would be an option of the local ssh.
        if let snippet = plan.snippet { argv += arguments.contains("--") ? [snippet] : ["--", snippet] }
        var env = environment.filter {
            ![SSHAskpass.sessionVariable, SSHAskpass.terminalVariable, "SSH_ASKPASS", "SSH_ASKPASS_REQUIRE"].contains($0.key)
        }
        if let askpass {
            env["SSH_ASKPASS"] = config.hostbookPath
            env["SSH_ASKPASS_REQUIRE"] = "force"
            env[SSHAskpass.sessionVariable] = askpass.identifier
            if !firstUseHops.isEmpty { env[SSHAskpass.terminalVariable] = "1" }
        }

        let options = Spawn.Options(defaultSignals: [SIGINT, SIGQUIT, SIGTSTP, SIGPIPE, SIGCHLD, SIGTERM, SIGHUP], signalMask: [],
                                    environment: Spawn.Options.environment(env))
        let pid: pid_t
        do { pid = try Spawn.start(client.path, argv, options) } catch {
            throw SSHSessionRefusal.sshNotStarted(path: client.path, reason: "\(error)")
        }
        secrets.attach(pid)
        askpass?.attach(sshPID: pid)

        var ended: WaitStatus
        while true {
            var signal: Int32 = 0
            guard sigwait(&waited, &signal) == 0 else { continue }
            if signal == SIGCHLD {
                if let status = WaitStatus.ifEnded(pid) { ended = status; break }
            } else {
                kill(pid, signal)
            }
        }
        let proof = logRelay?.finish()
        let rotation = SSHRotationLearning.learn(plan: plan, database: { try workspace.database() }, files: files, paths: paths,
                                                 proof: proof, sshStatus: ended.exitCode)
        // A vault failure stopped ssh: the vault's error is the outcome, not ssh's status.
        let secretsFailure: (any Error)?
        if case .failure(let error) = secrets.wait() { secretsFailure = error } else { secretsFailure = nil }
        // ssh's own failure (255) after it was given a stored password: ssh says only
        // "Permission denied (password)", and only hostbook knows the password was its own.
        let password = ended.exitCode == 255 ? askpass?.answered.last : nil
        return SSHSessionOutcome(exitStatus: ended.exitCode, rotation: rotation, secretsFailure: secretsFailure, passwordGivenBeforeFailure: password)
    }

    /// The hops whose first use, approved on the terminal, may learn the server's other
    /// keys in this session (SSHHostKeyRotation.learnsOnFirstUse): only when hostbook may ask
    /// (no --no-input, a terminal to ask on) and the arguments leave ssh's host-key settings
    /// and its questions alone (BatchMode would make ssh refuse its own question).
    static func firstUseHops(_ plan: SSHPlan, arguments: [String], noInput: Bool) -> Set<String> {
        guard !noInput, SSHHostKeyRotation.allowed(sshArguments: arguments),
              !arguments.contains(where: { $0.lowercased().contains("batchmode") }) else { return [] }
        let hops = plan.hops.filter { $0.rotation == nil && $0.learnsOnFirstUse }
        guard !hops.isEmpty else { return [] }
        guard let tty = ControllingTerminal.open() else { return [] }
        tty.close()
        return Set(hops.map(\.alias))
    }

    public static func localUserName() -> String {
        UserAccount.name(uid: getuid()) ?? "root"
    }
}
