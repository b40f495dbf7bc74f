// The words of each SessionRefusal: what is wrong, what to do, and the documented exit code
// (docs/command-line.md, "Exit codes"). The values are the library's raw data; every one is
// escaped when the line is printed (Hostbook.report).
import Sessions

extension SessionRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .keyNotFound, .notSubscribed: .notFound
        case .allowedSignersNotWritten: .failure
        case .bundleAlreadySubscribed, .noTrustedSigner, .notAClone, .noBundleAtHead, .bundleRenamed,
             .untrustedSigner, .namespaceNotAllowed, .bundleNotSigned, .notAPlainFile: .rejected
        }
    }

    var message: String {
        switch self {
        case .keyNotFound(let name):
            "no key named '\(name)'"
        case .bundleAlreadySubscribed(let bundle, let url):
            "bundle '\(bundle)' is already subscribed to (from \(url))"
        case .noTrustedSigner(let bundle):
            "no signer is trusted for bundle '\(bundle)'"
        case .notAClone(let folder, let url):
            "\(folder) exists and is not a clone of \(url)"
        case .notSubscribed(let bundle, _):
            "no subscription to a bundle named '\(bundle)'"
        case .noBundleAtHead(let bundle, let file):
            "the repository of bundle '\(bundle)' has no \(file) at its head"
        case .bundleRenamed(let subscribedAs, let name):
            "the bundle subscribed to as '\(subscribedAs)' is now called '\(name)'"
        case .untrustedSigner(let bundle, let fingerprint, _):
            "bundle '\(bundle)' is signed by \(fingerprint), which is not a trusted signer of it"
        case .namespaceNotAllowed(let key, let namespaces, let namespace):
            "key '\(key)' may sign only in namespace \(namespaces.joined(separator: ", ")), not \(namespace)"
        case .bundleNotSigned(let path):
            "the bundle is not signed (\(path).sig is missing)"
        case .notAPlainFile(let file, let folder, let commit, let mode):
            "\(file) in \(folder) (commit \(commit)) " + Self.notAFile(mode: mode)
        case .allowedSignersNotWritten(let path, let reason):
            "cannot write \(path): \(reason)"
        }
    }

    var hint: String? {
        switch self {
        case .keyNotFound:
            "Run 'hostbook keys list' to see the keys."
        case .bundleAlreadySubscribed(let bundle, _):
            "Run 'hostbook bundle update \(bundle)' to fetch it again, or 'hostbook bundle subscribe \(bundle) URL --replace' to move it."
        case .noTrustedSigner(let bundle):
            "Trust its publisher's key first: 'hostbook bundle trust \(bundle) --signer \"TYPE BASE64\"' (they get it with 'hostbook keys public KEY')."
        case .notAClone:
            "Remove that folder, then subscribe again."
        case .notSubscribed(let bundle, let updating):
            updating ? "Subscribe with 'hostbook bundle subscribe \(bundle) GIT-URL-OR-PATH'." : "Run 'hostbook bundle list' to see the subscriptions."
        case .noBundleAtHead(let bundle, _):
            "Its publisher writes it with 'hostbook bundle export --name \(bundle) --sign KEY -o CLONE' and pushes it."
        case .bundleRenamed(_, let name):
            "Subscribe to it under its own name: 'hostbook bundle subscribe \(name) URL'."
        case .untrustedSigner(let bundle, _, let signerLine):
            "If that key is its publisher's, trust it: 'hostbook bundle trust \(bundle) --signer \"\(signerLine)\"'."
        case .namespaceNotAllowed(let key, let namespaces, let namespace):
            "Allow it with 'hostbook keys edit \(key) \(namespaces.map { "--namespace \($0)" }.joined(separator: " ")) --namespace \(namespace)', or sign with another key."
        case .bundleNotSigned:
            "Ask its publisher to export it with 'hostbook bundle export --sign KEY'."
        case .notAPlainFile:
            "The publisher commits the bundle.txt and bundle.txt.sig that 'hostbook bundle export' writes, as plain files."
        case .allowedSignersNotWritten:
            "Fix the folder's permissions, then run 'hostbook git setup' again."
        }
    }

    /// What a git mode that is not a plain file's makes of the path.
    private static func notAFile(mode: String) -> String {
        switch mode {
        case "120000": "is a symbolic link, not a file"
        case "160000": "is a submodule, not a file"
        default: "is not a file (mode \(mode))"
        }
    }
}
