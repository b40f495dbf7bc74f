// The words of every mistake on a command line (ArgumentError): exit 2, the message, and
// a hint that names the help to read, led by the nearest known spelling when there is one.
import CommandLineKit

extension ArgumentError: UserFacingError {
    var exitCode: ExitCode { .usage }

    var message: String {
        switch self {
        case .missingValue(let option, let valueName, _): "\(option) needs a value (\(valueName))"
        case .takesNoValue(let option, _): "\(option) does not take a value"
        case .givenTwice(let option, _): "\(option) was given more than once"
        case .unknownOption(let option, .program, _): "unknown option '\(option)'"
        case .unknownOption(let option, .group(let words), _), .unknownOption(let option, .command(let words), _):
            "unknown option '\(option)' for '\(Self.spelled(words))'"
        case .emptyValue(let option, let valueName): "--\(option) needs a non-empty \(valueName.lowercased())"
        case .noCommand: "no command given"
        case .missingPositional(let name, let command): "missing \(name) for '\(Self.spelled(command))'"
        case .unexpectedArgument(let extra, let command): "unexpected argument '\(extra)' for '\(Self.spelled(command))'"
        case .unknownCommand(let word, let after, _) where after.isEmpty: "unknown command '\(word)'"
        case .unknownCommand(let word, let after, _): "unknown command '\(word)' for '\(Self.spelled(after))'"
        case .noSubcommand(let word, let command): "'\(Self.spelled(command))' has no subcommand '\(word)'"
        case .notAWholeNumber(let option, let range, let given):
            "--\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(given)'"
        case .conflicting(let options, _): "\(options.map { "--" + $0 }.joined(separator: " and ")) cannot be used together"
        }
    }

    var hint: String? {
        switch self {
        case .missingValue(_, _, let place), .takesNoValue(_, let place), .givenTwice(_, let place):
            Self.usageHint(place)
        case .unknownOption(_, let place, let suggestion):
            Self.didYouMean(suggestion, Self.usageHint(place))
        case .emptyValue, .notAWholeNumber:
            nil
        case .noCommand:
            "Run 'hostbook --help' to see the commands."
        case .missingPositional(_, let command), .unexpectedArgument(_, let command), .conflicting(_, let command):
            Self.usageHint(.command(command))
        case .unknownCommand(_, let after, let suggestion) where after.isEmpty:
            Self.didYouMean(suggestion.map(Self.spelled), "Run 'hostbook --help' to see the commands.")
        case .unknownCommand(_, let after, let suggestion):
            Self.didYouMean(suggestion.map(Self.spelled), "Run '\(Self.spelled(after)) --help' to see its commands.")
        case .noSubcommand(_, let command):
            "Run 'hostbook help \(command.joined(separator: " "))' for its usage."
        }
    }

    /// `hostbook WORDS...`.
    private static func spelled(_ words: [String]) -> String { ([CommandLineParser.program] + words).joined(separator: " ") }

    /// Where to read the usage, from where the parser was.
    private static func usageHint(_ place: Place) -> String {
        switch place {
        case .command(let words): "Run '\(spelled(words)) --help' for usage."
        case .program: "Run 'hostbook --help' for usage."
        case .group(let words): "Run '\(spelled(words)) --help' to see its commands."
        }
    }

    /// The hint led by a suggestion when there is one: "Did you mean 'hostbook list'? ...".
    private static func didYouMean(_ suggestion: String?, _ hint: String) -> String {
        guard let suggestion else { return hint }
        return "Did you mean '\(suggestion)'? " + hint
    }
}
