// The words of each SnippetsRefusal: what is wrong, what to do, and the documented exit code
// (docs/command-line.md, "Exit codes").
import HostStore
import Workflows

extension SnippetsRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .notFound: .notFound
        case .commandUnreadable: .failure
        case .commandTooLong: .rejected
        }
    }

    var message: String {
        switch self {
        case .notFound(let name): "no snippet named '\(name)'"
        case .commandUnreadable(let reason): "could not read the command from stdin: \(reason)"
        case .commandTooLong: "the command on stdin is over 1 MiB; the limit is \(SnippetRules.maxCommandBytes) bytes of UTF-8"
        }
    }

    var hint: String? {
        switch self {
        case .notFound: "See 'hostbook snippets list' for the snippets there are."
        case .commandUnreadable, .commandTooLong: nil
        }
    }
}
