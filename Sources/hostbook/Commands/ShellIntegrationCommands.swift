// `hostbook completions bash|zsh|fish` and `hostbook man`: the completion scripts and the
// manual page, generated from the command table (CommandLineKit's ShellIntegration/). scripts/install
// writes their output into share/; a user can also load them by hand:
//     source <(hostbook completions bash)
import CommandLineKit
import HostStore
import KeyFormats

enum ShellIntegrationCommands {
    static let all: [CommandSpec] = [completions, man]

    /// The command table as the completions and the man page read it: saved names come from
    /// `hostbook __complete KIND [--db PATH]` (CompleteFastPath).
    static let tree = CommandTree(help: CommandLineParser.help, commands: CommandTable.all.map(\.declaration),
                                  valueKind: SavedNames.forOption, completer: CompleteFastPath.word,
                                  contextOption: OptionName.db.rawValue, variablePrefix: "_hb")

    static let completions = CommandSpec(
        ["completions"], summary: "Print the shell completion script for bash, zsh or fish",
        discussion: """
        The script completes commands, options, and the names of saved hosts, keys and snippets
        wherever a command takes one. scripts/install puts it where each shell looks:
          share/bash-completion/completions/hostbook
          share/zsh/site-functions/_hostbook
          share/fish/vendor_completions.d/hostbook.fish
        Or load it by hand, e.g. in ~/.bashrc: source <(hostbook completions bash)
        """,
        positionals: [.required("SHELL", "bash, zsh or fish")],
        run: { inv in
            let shell = inv.args.positional(0)!
            let script: String
            switch shell {
            case "bash": script = BashCompletion.script(tree)
            case "zsh": script = ZshCompletion.script(tree)
            case "fish": script = FishCompletion.script(tree)
            default:
                throw CLIError.usage("unknown shell '\(PrintableText.quoted(shell))'", hint: "Use bash, zsh or fish.")
            }
            inv.write(.raw(script))   // hostbook's own script, printed as it is
        })

    static let man = CommandSpec(
        ["man"], summary: "Print the hostbook(1) manual page (roff)",
        discussion: "scripts/install writes it to share/man/man1/hostbook.1. To read it without installing: hostbook man | man -l -",
        run: { inv in inv.write(.raw(ManPage.page())) })   // roff drawn from the command table
}
