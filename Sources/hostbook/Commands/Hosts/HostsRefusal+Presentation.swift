// The words of each HostsRefusal: what is wrong, what to do, and the exit code (all usage
// errors, exit 2: docs/command-line.md, "Exit codes").
import HostStore
import Workflows

extension HostsRefusal: UserFacingError {
    var exitCode: ExitCode { .usage }

    var message: String {
        switch self {
        case .tagAddedAndRemoved(let tag): "--tag \(tag) and --untag \(tag) cannot be used together"
        case .notAResetField(let word): "--reset \(word): not a field a bundle host may override"
        case .notAUserPublishing(let word): "--bundle-user \(word): give omit or publish"
        case .resetWithOtherChanges: "--reset cannot be given with other changes"
        case .nothingToChange(let host): "nothing to change for host '\(host)'"
        }
    }

    var hint: String? {
        switch self {
        case .tagAddedAndRemoved, .notAUserPublishing: "Run 'hostbook edit --help' for usage."
        case .notAResetField: "Give one of: \(BundleOverrideField.allCases.map(\.rawValue).joined(separator: ", "))."
        case .resetWithOtherChanges: "Reset first, then change what you need in a second 'hostbook edit'."
        case .nothingToChange: "Run 'hostbook edit --help' for the options."
        }
    }
}
