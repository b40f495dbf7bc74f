// hostbook's command line: the global options, the words of its help, and the parse of
// argv into a command of CommandTable (CommandLineKit's ArgumentParser does the parsing;
// ArgumentError+Presentation words its mistakes).
import CommandLineKit

struct GlobalOptions: Sendable {
    var dbPath: String?
    var json = false
    var noInput = false
    var help = false
    var version = false
}

enum ParseOutcome {
    case run(CommandSpec, ParsedArguments, GlobalOptions)
    /// `--help` for a command, a group of commands, or the whole program.
    case help(String)
    case version
}

struct CommandLineParser {
    static let program = "hostbook"

    let commands: [CommandSpec]

    static let globalOptions: [OptionSpec] = [
        .value(.db, "PATH", "Database file (default $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db)", nonEmpty: true),
        .flag(.json, "Print machine-readable JSON"),
        .flag(.noInput, "Never prompt; fail with exit 3 when input would be needed"),
        .flag(.help, "Show help for the command"),
        .flag(.version, "Print the version"),
    ]

    static let help = HelpFormatter<OptionName>(
        program: program, globalOptions: globalOptions,
        groups: [
            .init("agent", "The standing ssh-agent for plain ssh, scp, rsync and git"),
            .init("agent upstream", "The other agents whose keys the standing agent signs through"),
            .init("bundle", "Signed team bundles of hosts, snippets and host keys, shared through git"),
            .init("keys", "Import, generate and export private keys"),
            .init("keys cert", "Attach and detach a key's OpenSSH certificate"),
            .init("ca", "Certificate authorities: sign user and host certificates, revoke them"),
            .init("git", "Sign git commits and tags with saved keys, through the agent"),
            .init("known-hosts", "Trusted host keys: check, approve, import and export"),
            .init("snippets", "Saved command lines"),
            .init("vault", "The Secret Service that holds passwords and keys"),
        ],
        introduction: """
        hostbook — SSH hosts, keys, trusted host keys and snippets; secrets in the Secret Service.

        Usage: hostbook <command> [options]

        Host commands:

        """,
        closing: "Secrets are never taken from arguments: use --password-stdin, --passphrase-stdin,\n--passphrase-file, or the prompt.\n")

    func parse(_ argv: [String]) throws -> ParseOutcome {
        let parser = ArgumentParser(commands: commands.map(\.declaration), help: Self.help, helpOption: .help, versionOption: .version)
        switch try parser.parse(argv) {
        case .help(let text): return .help(text)
        case .version: return .version
        case .run(let index, let args, let given):
            let globals = GlobalOptions(dbPath: given.value(.db), json: given.flag(.json), noInput: given.flag(.noInput),
                                        help: given.flag(.help), version: given.flag(.version))
            return .run(commands[index], args, globals)
        }
    }
}
