// The words of each SessionRefusal: what is wrong, what to do, and the documented exit code
// (docs/command-line.md, "Exit codes"). The values are the library's raw data; every one is
// escaped when the line is printed (Hostbook.report).
import HostStore
import Sessions

extension SessionRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .keyNotFound, .notSubscribed, .hostNotFound, .snippetNotFound, .jumpHostMissing, .hostKeyMissing: .notFound
        case .allowedSignersNotWritten, .jumpChainLoops, .jumpChainTooLong, .sshConfigNotWritable,
             .agentNotRunning, .agentDidNotAnswer, .agentLocked, .agentRefusedToSign, .agentSignatureDoesNotVerify: .failure
        case .bundleAlreadySubscribed, .noTrustedSigner, .notAClone, .noBundleAtHead, .bundleRenamed,
             .untrustedSigner, .namespaceNotAllowed, .bundleNotSigned, .notAPlainFile: .rejected
        default: bundleExitCode
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
        case .hostNotFound(let name, _):
            "no host named '\(name)'"
        case .snippetNotFound(let name):
            "no snippet named '\(name)'"
        case .jumpChainLoops(let host, let at):
            "the jump hosts of '\(host)' form a loop at '\(at)'"
        case .jumpChainTooLong(let host):
            JumpChain.tooLongMessage(host)
        case .jumpHostMissing(let jump, let of):
            "the jump host '\(jump)' of '\(of)' does not exist"
        case .hostKeyMissing(let key, let host):
            "the key '\(key)' of host '\(host)' does not exist"
        case .sshConfigNotWritable(let reason):
            "cannot write the ssh configuration: \(reason)"
        case .agentNotRunning(let socket, let purpose):
            "hostbook's agent is not running (nothing answers at \(socket)); \(purpose) are signed through it"
        case .agentDidNotAnswer(let socket):
            "the agent at \(socket) did not answer the signature request"
        case .agentLocked(let socket):
            "the agent at \(socket) is locked (it offers no keys)"
        case .agentRefusedToSign(let key):
            "the agent refused to sign with key '\(key)'"
        case .agentSignatureDoesNotVerify(let key, let reason):
            "the agent's signature with key '\(key)' does not verify: \(reason)"
        default: bundleMessage
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
        case .hostNotFound(_, let nearest?):
            "Did you mean '\(nearest)'? Run 'hostbook ssh \(nearest)' to connect to it."
        case .hostNotFound(_, nil):
            "Run 'hostbook list' to see the saved hosts, or 'hostbook add' to add one."
        case .snippetNotFound:
            "Run 'hostbook snippets list' to see the snippets."
        case .jumpChainLoops:
            "Fix it with 'hostbook edit NAME --no-jump' on one of them."
        case .jumpChainTooLong:
            "Shorten it with 'hostbook edit NAME --jump' or '--no-jump'."
        case .jumpHostMissing, .hostKeyMissing, .agentSignatureDoesNotVerify:
            nil
        case .sshConfigNotWritable:
            "Rename the host (hostbook edit NAME --rename NEW) to a plain name."
        case .agentNotRunning:
            "Start it with 'eval \"$(hostbook agent start)\"', then run this again."
        case .agentDidNotAnswer:
            "Restart it: 'hostbook agent stop', then 'eval \"$(hostbook agent start)\"'."
        case .agentLocked(let socket):
            "Unlock it with 'SSH_AUTH_SOCK=\(socket) ssh-add -X', then run this again."
        case .agentRefusedToSign:
            "See why with 'hostbook agent log' (a locked vault, a declined approval, a key restricted to other namespaces), then run this again."
        default: bundleHint
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
