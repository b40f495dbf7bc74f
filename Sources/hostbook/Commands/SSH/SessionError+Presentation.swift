// The Sessions library's refusals reach the user as one line and a hint, with the
// documented exit code (docs/command-line.md, "Exit codes").
import Sessions

extension SessionError: UserFacingError {
    var exitCode: ExitCode {
        switch kind {
        case .notFound: .notFound
        case .rejected: .rejected
        case .failed: .failure
        }
    }
}
