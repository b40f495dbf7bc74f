// git failing on a bundle's repository (BundleGitFailure): one line saying what git could
// not do, then each line git said, escaped, and a hint (exit 1).
import Sessions

extension BundleGitFailure: UserFacingError {
    var exitCode: ExitCode { .failure }

    var message: String {
        lines.isEmpty ? "git could not \(what) (exit \(status))" : "git could not \(what); git said:"
    }

    var details: [String] { lines.map { "git: " + $0 } }

    var hint: String? { "Check the URL or path and your access to it (try the same 'git' command yourself)." }
}
