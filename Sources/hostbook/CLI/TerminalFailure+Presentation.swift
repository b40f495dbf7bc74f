// The words of what went wrong at the terminal (TerminalFailure): a prompt, a secret read
// from a pipe or a file, the host picker's screen.
import CommandLineKit

extension TerminalFailure: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .tooLong, .answerTooLong: .rejected
        case .unreadableTerminal, .unreadable, .endOfInput, .cannotOpen, .unusable, .cannotDraw, .closed: .failure
        }
    }

    var message: String {
        switch self {
        case .tooLong(let what): "\(what ?? "the input") is longer than 1 MiB"
        case .answerTooLong: "the answer is too long"
        case .unreadableTerminal(let reason?): "could not read from the terminal: \(reason)"
        case .unreadableTerminal(nil): "could not read from the terminal"
        case .unreadable(let what, let reason): "could not read \(what): \(reason)"
        case .endOfInput: "no input (end of file at the prompt)"
        case .cannotOpen(let what, let path, let reason): "cannot open \(what) file '\(path)': \(reason)"
        case .unusable(let reason): "cannot use the terminal: \(reason)"
        case .cannotDraw(let reason): "cannot draw on the terminal: \(reason)"
        case .closed: "the terminal was closed"
        }
    }

    var hint: String? { nil }
}
