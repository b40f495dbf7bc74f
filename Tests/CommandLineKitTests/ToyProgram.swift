// A small program's command table, for testing CommandLineKit without hostbook: `tool add
// NAME [--port N] [--tag T]...`, `tool keys list [--wide]`, `tool keys remove KEY`,
// `tool run HOST [ARGS...]` (passes its arguments on), global `--config PATH`, `--help`,
// `--version`.
import CommandLineKit

enum ToyOption: String, OptionNaming {
    case port, tag, wide, config, help, version, quiet
}

enum ToyProgram {
    static let globals: [OptionSpec<ToyOption>] = [
        .value(.config, "PATH", "Configuration file", nonEmpty: true),
        .flag(.help, "Show help"),
        .flag(.version, "Print the version"),
    ]

    static let commands: [CommandDeclaration<ToyOption>] = [
        CommandDeclaration(words: ["add"], summary: "Add a host", usage: nil, discussion: "Adds NAME.",
                           positionals: [.required("NAME", "The host's name")],
                           options: [.value(.port, "N", "Port"), .value(.tag, "T", "A tag", repeatable: true), .flag(.quiet, "Say nothing")],
                           passesArgumentsAfterFirstPositional: false),
        CommandDeclaration(words: ["keys", "list"], summary: "List keys", usage: nil, discussion: nil,
                           positionals: [], options: [.flag(.wide, "Every column")], passesArgumentsAfterFirstPositional: false),
        CommandDeclaration(words: ["keys", "remove"], summary: "Remove a key", usage: nil, discussion: nil,
                           positionals: [.required("KEY", "The key", completes: .named("keys"))], options: [],
                           passesArgumentsAfterFirstPositional: false),
        CommandDeclaration(words: ["run"], summary: "Run a program", usage: "HOST [ARGS...]", discussion: nil,
                           positionals: [.required("HOST", "Where", completes: .files)], options: [.flag(.quiet, "Say nothing")],
                           passesArgumentsAfterFirstPositional: true),
    ]

    static let help = HelpFormatter<ToyOption>(program: "tool", globalOptions: globals, groups: [.init("keys", "The keys")],
                                               introduction: "tool — a toy.\n\nCommands:\n", closing: "")

    static let parser = ArgumentParser(commands: commands, help: help, helpOption: .help, versionOption: .version)

    static let tree = CommandTree(help: help, commands: commands, valueKind: { $0.name == "config" ? .files : .nothing },
                                  completer: "__names", contextOption: "config", variablePrefix: "_tl")
}
