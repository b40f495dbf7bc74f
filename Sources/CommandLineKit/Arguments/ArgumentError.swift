// What is wrong with a command line, as data: the option, word or value, and where the
// parser was (before any command word, among a group's words, in a command). The program
// words each case (its usage errors, exit 2).

public enum ArgumentError: Error, Equatable, Sendable {
    /// Where the parser was when it found the mistake.
    public enum Place: Equatable, Sendable {
        /// No command word yet.
        case program
        /// A group's words (`keys`), no whole command.
        case group([String])
        case command([String])
    }

    /// `option` (as typed: `--name` or `-l`) ended the line without its value.
    case missingValue(option: String, valueName: String, place: Place)
    /// `--name=VALUE` for a flag.
    case takesNoValue(option: String, place: Place)
    /// A value option that is not repeatable, given again.
    case givenTwice(option: String, place: Place)
    /// `suggestion` is the nearest known spelling (`--port`), if one is near enough.
    case unknownOption(option: String, place: Place, suggestion: String?)
    /// An option declared `nonEmpty` given an empty value.
    case emptyValue(option: String, valueName: String)
    case noCommand
    /// The first of the command's required positionals that is missing.
    case missingPositional(name: String, command: [String])
    case unexpectedArgument(String, command: [String])
    /// `word` is no command after `after` (nothing, or a group's words); `suggestion` is the
    /// nearest command's whole words, if one is near enough.
    case unknownCommand(word: String, after: [String], suggestion: [String]?)
    /// `help COMMAND WORD`: `command` is a whole command that has no subcommand `word`.
    case noSubcommand(word: String, command: [String])
    case notAWholeNumber(option: String, range: ClosedRange<Int>, given: String)
    /// Options that exclude each other, given together.
    case conflicting(options: [String], command: [String])
}
