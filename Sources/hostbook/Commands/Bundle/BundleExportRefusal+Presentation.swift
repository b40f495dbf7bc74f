// The words of an export that wrote nothing (BundleExportRefusal): a missing folder, an
// export that drops what the bundle carried, a subscriber who is not a signer.
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import Sessions
import System

extension BundleExportRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .folderNotCreated(_, let errno, let parents): errno.code == ENOENT && !parents ? .notFound : .failure
        case .removals, .notASigner: .rejected
        }
    }

    var message: String {
        switch self {
        case .folderNotCreated(let path, let errno, let parents):
            if errno.code == ENOENT && !parents {
                return "the folder \(path.escapedForTerminal) does not exist, nor does its parent"
            }
            return "cannot create the folder \(path.escapedForTerminal): \(errno.description.escapedForTerminal)"
        case .removals:
            return question + " Nothing was written."
        case .notASigner(let bundle, let fingerprint):
            return "hosts of bundle '\(bundle.escapedForTerminal)' came to this database from its publishers, and key \(fingerprint) is not a trusted signer of it: only its signers publish it"
        }
    }

    var hint: String? {
        switch self {
        case .folderNotCreated(_, let errno, let parents):
            return errno.code == ENOENT && !parents ? "Give --parents to create the missing folders, or check the path." : "Check the path and its permissions (-o DIR)."
        case .removals:
            return "Add --allow-removals if they should go, or publish them again (--tag, --snippet)."
        case .notASigner(let bundle, _):
            return "Export your own hosts under another bundle name, or ask a maintainer of '\(bundle.escapedForTerminal)' to trust your key ('hostbook bundle trust \(bundle.escapedForTerminal) --signer ...')."
        }
    }

    /// "Bundle 'team' would drop 2 hosts (a, b) ... that serial 4 (in DIR/bundle.txt) carried."
    var question: String {
        guard case .removals(let bundle, let previous, let removals, let baseline) = self else { return message }
        let from: String
        switch baseline {
        case .folder(let path): from = "serial \(previous) in \(path.escapedForTerminal)"
        case .database: from = "serial \(previous) as this database holds it"
        }
        return "this export of bundle '\(bundle.escapedForTerminal)' drops \(Self.described(removals)) that \(from) carried."
    }

    /// "2 hosts (a, b), 1 snippet (x), 3 host-key entries", the parts that are not zero.
    static func described(_ r: BundleRemovals) -> String {
        var parts: [String] = []
        func named(_ n: Int, _ noun: String, _ names: [String]) -> String {
            "\(n) \(noun)\(n == 1 ? "" : "s") (\(names.map(\.escapedForTerminal).joined(separator: ", ")))"
        }
        if !r.hosts.isEmpty { parts.append(named(r.hosts.count, "host", r.hosts)) }
        if !r.snippets.isEmpty { parts.append(named(r.snippets.count, "snippet", r.snippets)) }
        if r.hostKeys > 0 { parts.append("\(r.hostKeys) host-key entr\(r.hostKeys == 1 ? "y" : "ies")") }
        return parts.joined(separator: ", ")
    }
}
