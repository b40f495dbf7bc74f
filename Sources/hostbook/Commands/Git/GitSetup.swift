// `hostbook git setup KEY [--global | --repo PATH] [--email E]`: git signs commits and tags
// with a saved key through hostbook's agent (GitSigningSetup does the work).
import HostStore
import Sessions

enum GitSetup {
    static let spec = CommandSpec(
        ["git", "setup"], changesHostsOrKeys: true,
        summary: "Make git sign commits and tags with a saved key, through the agent",
        usage: "KEY [--global | --repo PATH] [--email E]",
        discussion: """
            Sets, in the current repository (or --repo PATH, or --global): gpg.format ssh, \
            user.signingkey key::TYPE BASE64, commit.gpgsign true, tag.gpgsign true and \
            gpg.ssh.allowedSignersFile $XDG_CONFIG_HOME/hostbook/allowed_signers, which it writes. \
            The email is --email, else git's user.email; user.email is set only where it had none. \
            A key with no namespace is restricted to namespace git: it then signs git's \
            signatures only and is no longer offered to servers ('hostbook keys edit KEY --no-namespace' lifts it). \
            git signs through the agent at SSH_AUTH_SOCK: run 'eval "$(hostbook agent start)"' first.
            """,
        positionals: [.required("KEY", "The key to sign with", completes: .keys)],
        options: [
            .flag(.global, "Configure git for every repository of this user (~/.gitconfig)"),
            .value(.repo, "PATH", "Configure the repository at PATH instead of the current one"),
            .value(.email, "E", "The email to sign as (default: git's user.email)"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        try inv.args.exclusive(.global, .repo)
        let scope: GitSigningSetup.Scope = inv.args.flag(.global) ? .global
            : inv.args.value(.repo).map { .repository($0) } ?? .currentRepository
        let setup = try GitSigningSetup.findGit(environment: inv.environment)
        // A key that does not exist is reported as the keys commands report it, without
        // creating a database.
        _ = try KeysContext.existingKey(inv, named: inv.args.positional(0)!)
        let ctx = try KeysContext.open(inv)
        let outcome = try setup.run(database: ctx.database, keyName: inv.args.positional(0)!, scope: scope,
                                    email: inv.args.value(.email), home: inv.homeDirectory, environment: inv.environment)
        if inv.json {
            inv.printJSON(.object([
                ("key", .string(outcome.key.name)),
                ("email", .string(outcome.email)),
                ("scope", .string(scopeName(scope))),
                ("signing_key", .string(outcome.signingKey)),
                ("allowed_signers", .string(outcome.allowedSignersFile)),
                ("namespaces_changed", .bool(outcome.namespaceChange != .none)),
                ("user_email_set", .bool(outcome.setUserEmail)),
            ]))
            return
        }
        let name = outcome.key.name
        switch outcome.namespaceChange {
        case .restrictedToGit:
            inv.print("Key '\(name)' had no namespace: it now signs only git signatures (namespace git) and is no longer offered to servers.")
            inv.print("(Undo with 'hostbook keys edit \(name) --no-namespace'.)")
        case .gitAdded:
            inv.print("Key '\(name)' may now also sign in namespace git.")
        case .none:
            break
        }
        if outcome.setUserEmail { inv.print("git's user.email was not set: set to \(outcome.email).") }
        inv.print("git (\(scopeName(scope))) now signs commits and tags with key '\(name)' as \(outcome.email).")
        inv.print("Allowed signers: \(outcome.allowedSignersFile)")
    }

    static func scopeName(_ scope: GitSigningSetup.Scope) -> String {
        switch scope {
        case .global: "global"
        case .repository(let path): path
        case .currentRepository: "this repository"
        }
    }
}
