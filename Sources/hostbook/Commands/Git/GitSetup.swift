// `hostbook git setup KEY [--global | --repo PATH] [--email E]`: git signs commits and tags
// with a saved key through hostbook's agent (GitSigningSetup does the work).
import CommandLineKit
import HostStore
import Sessions
import Workflows

enum GitSetup {
    static let spec = CommandSpec(
        ["git", "setup"], changesHostsOrKeys: true,
        summary: "Make git sign commits and tags with a saved key, through the agent",
        usage: "KEY | --new-key NAME [--global | --repo PATH] [--email E] [--start-agent]",
        discussion: """
            Sets, in the current repository (or --repo PATH, or --global): gpg.format ssh, \
            gpg.ssh.program to hostbook itself, user.signingkey to the key's public key file (written \
            to git-signing/ in the data folder), commit.gpgsign true, tag.gpgsign true and \
            gpg.ssh.allowedSignersFile $XDG_CONFIG_HOME/hostbook/allowed_signers, which it writes. \
            The email is --email, else git's user.email; user.email is set only where it had none. \
            A key with no namespace that no saved host logs in with is restricted to namespace git: \
            it then signs git's signatures only and is no longer offered to servers \
            ('hostbook keys edit KEY --no-namespace' lifts it). A key saved hosts log in with is never \
            restricted: on a terminal hostbook offers to make a dedicated signing key instead; \
            otherwise the key is set up unrestricted and the output says how to restrict it. \
            --new-key NAME generates a new ed25519 key NAME, restricted to namespace git, and sets it up. \
            git then runs 'hostbook -Y sign', which signs through hostbook's standing agent at its own \
            socket (then SSH_AUTH_SOCK), so it works in any shell of this user once 'hostbook agent start' \
            has run (start it from the shell's profile or the desktop's autostart). --start-agent also sets \
            hostbook.startAgent true: when no agent answers, 'hostbook -Y sign' starts it as 'hostbook agent start' \
            does and then signs (a locked vault still fails, with the command that unlocks it). \
            Verification runs ssh-keygen.
            """,
        positionals: [.optional("KEY", "The key to sign with", completes: SavedNames.keys)],
        options: [
            .value(.newKey, "NAME", "Generate a new key NAME for git signing only (namespace git) and set it up"),
            .flag(.global, "Configure git for every repository of this user (~/.gitconfig)"),
            .value(.repo, "PATH", "Configure the repository at PATH instead of the current one"),
            .value(.email, "E", "The email to sign as (default: git's user.email)"),
            .flag(.startAgent, "Set hostbook.startAgent: signing starts the standing agent when it is not running"),
        ],
        run: run)

    /// The name offered for a dedicated signing key (GitSetupWorkflow's).
    static let offeredKeyName = GitSetupWorkflow.offeredKeyName

    static func run(_ inv: Invocation) throws {
        try inv.args.exclusive(.global, .repo)
        let scope: GitSigningSetup.Scope = inv.args.flag(.global) ? .global
            : inv.args.value(.repo).map { .repository($0) } ?? .currentRepository
        let email = inv.args.value(.email)
        let newKey = inv.args.value(.newKey)
        let keyName: String
        var created = false
        switch (inv.args.positional(0), newKey) {
        case (.some, .some):
            throw CLIError.usage("give either KEY or --new-key NAME, not both")
        case (nil, nil):
            throw CLIError.usage("give the KEY to sign with, or --new-key NAME to make one")
        case (let name?, nil):
            // A key that does not exist is reported as the keys commands report it, without
            // creating a database.
            let (ctx, key) = try KeysContext.existingKey(inv.workspace, named: name)
            keyName = try offerDedicatedKey(inv, ctx, key, scope: scope, email: email) ?? name
            created = keyName != name
        case (nil, let name?):
            try KeyName.validate(name, option: "--new-key")
            try GitSigningSetup.findGit(environment: inv.environment).check(scope: scope, email: email)
            _ = try KeyGeneration.generate(KeysContext.open(inv.workspace), name: name, comment: name)
            keyName = name
            created = true
        }
        let setup = try GitSigningSetup.findGit(environment: inv.environment)
        let ctx = try KeysContext.open(inv.workspace)
        let outcome = try setup.run(database: ctx.database, keyName: keyName, scope: scope,
                                    email: email, home: inv.homeDirectory, environment: inv.environment,
                                    program: try SSHPaths.executable(), keyFolder: GitSetupWorkflow.keyFolder(databasePath: inv.databasePath),
                                    startAgent: inv.args.flag(.startAgent))
        if inv.json {
            inv.printJSON(.object([
                ("key", .string(outcome.key.name)),
                ("key_created", .bool(created)),
                ("email", .string(outcome.email)),
                ("scope", .string(scopeName(scope))),
                ("signing_key", .string(outcome.signingKey)),
                ("program", .string(outcome.program)),
                ("allowed_signers", .string(outcome.allowedSignersFile)),
                ("namespaces_changed", .bool(outcome.namespaceChange != .none && outcome.namespaceChange != .leftUnrestricted)),
                ("left_unrestricted", .bool(outcome.namespaceChange == .leftUnrestricted)),
                ("hosts_using_key", .array(outcome.hostsUsingKey.map { .string($0) })),
                ("user_email_set", .bool(outcome.setUserEmail)),
                ("starts_agent", .bool(inv.args.flag(.startAgent))),
            ]))
            return
        }
        let name = outcome.key.name
        if created { inv.print("Generated key '\(name)' for git signing: \(try KeyPresentation.summary(outcome.key))") }
        switch outcome.namespaceChange {
        case .restrictedToGit:
            inv.print(created ? "Key '\(name)' signs only git signatures (namespace git) and is never offered to servers."
                : "Key '\(name)' had no namespace: it now signs only git signatures (namespace git) and is no longer offered to servers.")
            if !created { inv.print("(Undo with 'hostbook keys edit \(name) --no-namespace'.)") }
        case .gitAdded:
            inv.print("Key '\(name)' may now also sign in namespace git.")
        case .leftUnrestricted:
            inv.print("Key '\(name)' was left unrestricted: saved hosts log in with it (\(outcome.hostsUsingKey.joined(separator: ", "))), so it signs ssh logins and git signatures alike.")
            inv.print("(For a key that signs only git signatures: 'hostbook git setup --new-key \(offeredKeyName)\(scopeOption(scope))'; 'hostbook keys edit \(name) --namespace git' would cut those hosts off.)")
        case .none:
            break
        }
        if outcome.setUserEmail { inv.print("git's user.email was not set: set to \(outcome.email).") }
        inv.print("git (\(scopeName(scope))) now signs commits and tags with key '\(name)' as \(outcome.email).")
        inv.print("Allowed signers: \(outcome.allowedSignersFile)")
        inv.print("Public key file (user.signingkey): \(outcome.signingKey)")
        if inv.args.flag(.startAgent) {
            inv.print("When hostbook's agent is not running, signing starts it (hostbook.startAgent).")
        } else if !GitSigningProgram.agentAnswers(GitSigningProgram.sockets(inv.environment)) {
            inv.print("git signs through hostbook's agent, which is not running: start it with 'hostbook agent start' (in the shell's profile, for every session).")
        }
    }

    /// On a terminal, for an unrestricted key that saved hosts log in with: offers to make a
    /// dedicated signing key instead and returns its name when the user says yes (the key is
    /// generated; `run` restricts it to git). nil: set up `key` itself (left unrestricted).
    static func offerDedicatedKey(_ inv: Invocation, _ ctx: KeysContext, _ key: StoredKey,
                                  scope: GitSigningSetup.Scope, email: String?) throws -> String? {
        guard inv.canPrompt, let (name, hosts) = try GitSetupWorkflow.dedicatedKeyOffer(database: ctx.database, key: key) else { return nil }
        inv.note("Key '\(key.name)' logs in to saved hosts (\(hosts.joined(separator: ", "))): restricting it to git signatures would cut them off.")
        guard try inv.confirm("Make a dedicated signing key '\(name)' (ed25519, namespace git) and set that up instead?", alternative: "--new-key NAME") else {
            return nil
        }
        try GitSigningSetup.findGit(environment: inv.environment).check(scope: scope, email: email)
        _ = try KeyGeneration.generate(KeysContext.open(inv.workspace), name: name, comment: name)
        return name
    }

    /// The scope as options of a suggested command.
    static func scopeOption(_ scope: GitSigningSetup.Scope) -> String {
        switch scope {
        case .global: " --global"
        case .repository(let path): " --repo \(ShellQuote.quote(path))"
        case .currentRepository: ""
        }
    }

    static func scopeName(_ scope: GitSigningSetup.Scope) -> String {
        switch scope {
        case .global: "global"
        case .repository(let path): path
        case .currentRepository: "this repository"
        }
    }
}
