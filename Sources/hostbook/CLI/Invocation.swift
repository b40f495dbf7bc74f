// Everything a command body needs: its arguments, the global options, and the
// process's input and output (terminal detection, prompts, JSON and text output).
import CommandLineKit
import SecureMemory
import System
import Workflows

final class Invocation {
    let args: ParsedArguments
    let globals: GlobalOptions
    /// The command's environment and its one database handle, handed to the workflows.
    let workspace: Workspace
    var environment: [String: String] { workspace.environment }

    init(args: ParsedArguments, globals: GlobalOptions, environment: [String: String]) {
        self.args = args
        self.globals = globals
        self.workspace = Workspace(environment: environment, databasePath: globals.dbPath)
    }

    var json: Bool { globals.json }

    /// True when hostbook may ask the user something: stdin is a terminal and --no-input is off.
    var canPrompt: Bool { !globals.noInput && FileDescriptor.standardInput.isTerminal }

    var stdoutIsTerminal: Bool { FileDescriptor.standardOutput.isTerminal }

    var stderrIsTerminal: Bool { FileDescriptor.standardError.isTerminal }

    /// Colour and bold only on a terminal, never with NO_COLOR set to anything but the empty
    /// string (https://no-color.org), nor on TERM=dumb.
    var useColor: Bool { stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb" }

    /// `--wide` on the commands that print a table (read by `tableWidth`).
    static let wideOption = OptionSpec.flag(.wide, "Show every column in full, however wide the terminal")

    /// How wide a table may be: nil with --wide or on a pipe without $COLUMNS (TerminalSize).
    var tableWidth: Int? { args.sharedFlag(.wide) ? nil : TerminalSize.columns(environment: environment) }

    /// Progress on stderr only when it is a terminal and neither --json nor --no-input was given.
    var showsProgress: Bool { stderrIsTerminal && !globals.json && !globals.noInput }

    /// A progress line for long work (nothing is drawn unless `showsProgress`).
    func progress(_ label: TerminalText) -> Progress {
        Progress(label: label, enabled: showsProgress)
    }

    /// The database path (Workspace.databasePath: --db, else the environment's).
    var databasePath: String { workspace.databasePath }

    var homeDirectory: String { workspace.homeDirectory }

    // MARK: Output
    // Everything printed is TerminalText: values interpolated into it are escaped unless the
    // code says `raw` (TerminalText.swift).

    func print(_ text: TerminalText) { Output.write(text + "\n", to: .standardOutput) }

    /// `text` to stdout as it is: a block that ends its own lines (a table, a report).
    func write(_ text: TerminalText) { Output.write(text, to: .standardOutput) }

    /// A line to stderr prefixed `hostbook: warning: `.
    func warn(_ text: TerminalText) { Output.write("hostbook: warning: \(text)\n", to: .standardError) }

    /// A note to stderr (progress, questions), never mixed into machine-readable stdout.
    func note(_ text: TerminalText) { Output.write(text + "\n", to: .standardError) }

    /// JSON is printed raw: its encoding already escapes every control character.
    func printJSON(_ value: JSONValue) { writeJSON(value.rendered() + "\n") }

    /// Rendered JSON, or a piece of it (StreamedJSONObject), to stdout.
    func writeJSON(_ text: String) { Output.write(.raw(text), to: .standardOutput) }

    // MARK: Input

    /// Fails with exit 3 unless prompting is possible; `alternative` names the flag to use.
    func requirePrompt(for what: String, alternative: String) throws {
        guard canPrompt else {
            let why = globals.noInput ? "--no-input was given" : "there is no terminal"
            throw CLIError.inputNeeded("\(what) is needed but \(why)", hint: "Use \(alternative) instead.")
        }
    }

    /// Asks for a secret without echo. `alternative` is what to use without a terminal.
    func promptSecret(_ prompt: TerminalText, alternative: String) throws -> SecretBytes {
        try requirePrompt(for: prompt.text.trimmingSuffix(":"), alternative: alternative)
        return try Terminal.readSecret(prompt: prompt)
    }

    /// Asks a yes/no question on the terminal; `--yes`-style flags bypass it before calling.
    func confirm(_ question: TerminalText, alternative: String) throws -> Bool {
        try requirePrompt(for: "confirmation", alternative: alternative)
        let answer = try Terminal.readLine(prompt: question + " [y/N] ")
        return ["y", "yes"].contains(answer.lowercased())
    }

    /// For `remove`-style commands: unless `--yes` was given, asks `question` on the terminal
    /// (exit 3 without one); a "no" prints "Nothing removed." and exits 1.
    func confirmUnlessYes(_ question: TerminalText) throws {
        if args.sharedFlag(.yes) { return }
        guard try confirm(question, alternative: "--yes") else {
            note("Nothing removed.")
            throw ExitStatus(code: .failure)
        }
    }

    /// Reads a line of visible input on the terminal.
    func ask(_ prompt: TerminalText, alternative: String) throws -> String {
        try requirePrompt(for: "an answer", alternative: alternative)
        return try Terminal.readLine(prompt: prompt)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        if s.hasSuffix(suffix) { s.removeLast(suffix.count) }
        return s
    }
}
