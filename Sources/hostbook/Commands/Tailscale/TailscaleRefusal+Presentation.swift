// The words of each TailscaleRefusal: what is wrong, what to do, and the documented exit
// code (docs/command-line.md, "Exit codes"); every line is escaped when printed.
import KeyFormats
import Workflows

extension TailscaleRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .cannotOpen, .tailscaleNotFound, .cannotRun, .statusFailed, .statusUnusable: .failure
        case .tagWithoutName, .onlyWithoutNames, .badChoice: .usage
        case .deviceNotFound: .notFound
        }
    }

    var message: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open '\(path)': \(reason)"
        case .tailscaleNotFound: "the 'tailscale' command was not found, so the device list cannot be read from it"
        case .cannotRun(nil, let reason): "cannot run tailscale: \(reason)"
        case .cannotRun(let program?, let reason): "cannot run '\(program)': \(reason)"
        case .statusFailed(let reason): "'tailscale status --json' failed: \(reason)"
        case .statusUnusable(let reason): "the output of 'tailscale status --json' cannot be used: \(reason)"
        case .tagWithoutName: "--tag needs a tag name, e.g. --tag prod or --tag tag:prod"
        case .onlyWithoutNames: "--only needs one or more device names separated by commas"
        case .deviceNotFound(let name): "no Tailscale device named '\(PrintableText.quoted(name))' in the input"
        case .badChoice(let part, let count): "'\(part)' is not a device number or range from 1 to \(count)"
        }
    }

    var hint: String? {
        switch self {
        case .tailscaleNotFound, .cannotRun(_?, _), .statusUnusable: Self.passFileHint
        case .statusFailed: "Is Tailscale running ('tailscale up')? Or pass a file: hostbook import-tailscale FILE"
        case .deviceNotFound: "Use the first label of its MagicDNS name (e.g. web01), its full name or its node ID."
        case .cannotOpen, .cannotRun(nil, _), .tagWithoutName, .onlyWithoutNames, .badChoice: nil
        }
    }

    static let passFileHint = "Pass a file instead: run 'tailscale status --json > status.json' where Tailscale runs, then 'hostbook import-tailscale status.json'."
}
