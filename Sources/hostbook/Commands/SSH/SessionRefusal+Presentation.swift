// The words of each SessionRefusal (sessions, agents, git signing, team bundles, the
// installed configuration): what is wrong, what to do, and the documented exit code
// (docs/command-line.md, "Exit codes"), every case in one switch each, so a new case
// without words does not build. The values are the library's raw data; every one is
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
        case .signUsage, .noGitEmail, .gitEmailRefused, .bundleNameRefused, .bundleURLRefused, .bundleFileTooLarge,
             .gitFileTooLarge, .exportFolderHoldsOther, .bundleSerialExhausted, .exportFolderNotSigned,
             .exportFolderSignerUnknown, .bundleUnreadable, .keyCannotSignBundles, .bundleSignatureInvalid:
            .rejected
        case .userSSHConfigUnreadable(_, _, _, let tooLarge):
            tooLarge ? .rejected : .failure
        case .bundleFileNotRead, .bundleFileNotWritten, .exportFolderNotABundle, .folderNotCreated,
             .gitConfigFailed, .gitListingUnknown, .gitNotInstalled, .gitTimedOut, .installPathNotWritable,
             .notAGitRepository, .programNotRun, .signFileNotRead, .signInputNotRead,
             .signatureFileNotWritten, .signatureNotWritten:
            .failure
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
        case .folderNotCreated(let path, let reason):
            "cannot create \(path): \(reason)"
        case .programNotRun(let program, let reason):
            "cannot run \(program): \(reason)"
        case .gitNotInstalled(let forBundles):
            "git is not installed (no 'git' on PATH)" + (forBundles ? "; bundles are subscribed to through git" : "")
        case .signUsage(let problem):
            "ssh-keygen -Y sign: " + Self.words(problem)
        case .signInputNotRead(let reason):
            "cannot read the data to sign from standard input: \(reason)"
        case .signatureNotWritten(let reason):
            "cannot write the signature to standard output: \(reason)"
        case .signatureFileNotWritten(let file, let reason):
            "cannot write \(file).sig: \(reason)"
        case .signFileNotRead(let keyFile, let path, let opening, let limit, let reason):
            "cannot \(opening ? "open" : "read") \(keyFile ? "the key file" : "the file to sign") \(path): "
                + (limit.map { "longer than \($0) bytes" } ?? reason)
        case .gitConfigFailed(let name, let gitSays):
            "git config \(name) failed: \(gitSays)"
        case .notAGitRepository(let path?):
            "\(path) is not a git repository"
        case .notAGitRepository(nil):
            "the current folder is not in a git repository"
        case .noGitEmail(let global):
            "no email to sign as: git's user.email is not set \(global ? "globally" : "for this repository")"
        case .gitEmailRefused(let problem, let email):
            "\(problem): \(email)"
        case .bundleNameRefused(let problem), .bundleURLRefused(let problem):
            problem
        case .bundleFileNotWritten(let file, let reason):
            "cannot write \(file): \(reason)"
        case .bundleFileNotRead(let path, let reason):
            "cannot read \(path): \(reason)"
        case .bundleFileTooLarge(let path, let limit):
            "\(path) is larger than \(limit / 1024) KiB"
        case .gitFileTooLarge(let file, let folder, let commit, let limit):
            "\(file) in \(folder) (commit \(commit)) is larger than \(limit / 1024) KiB"
        case .gitListingUnknown(let file, let folder, let commit):
            "git listed \(file) in \(folder) (commit \(commit)) in a form hostbook does not know"
        case .gitTimedOut(let what, let minutes):
            "git could not \(what): no answer within \(minutes) minutes"
        case .exportFolderNotABundle(let path, let reason):
            "\(path) is not a bundle: \(reason)"
        case .exportFolderHoldsOther(let path, let other, let bundle):
            "\(path) holds bundle '\(other)', not '\(bundle)'"
        case .bundleSerialExhausted(let bundle, let serial):
            "the serial of bundle '\(bundle)' (\(serial)) is too large to be raised"
        case .exportFolderNotSigned(let path, let reason):
            "\(path) is not signed by a trusted key (\(reason)); its serial is not taken"
        case .exportFolderSignerUnknown(let path, let fingerprint, let bundle):
            "\(path) is not signed by a trusted key (signed by \(fingerprint), which is neither a key of this database nor a trusted signer of bundle '\(bundle)'); its serial is not taken"
        case .bundleUnreadable(let shownAs, let reason):
            "\(shownAs) is not a bundle hostbook can read: \(reason)"
        case .keyCannotSignBundles(let key, let type):
            "key '\(key)' (\(type)) cannot sign bundles here"
        case .bundleSignatureInvalid(let reason):
            "the bundle's signature is not valid: \(reason)"
        case .installPathNotWritable(let path, let reason):
            "the path \(path) cannot be written in ssh_config: \(reason)"
        case .userSSHConfigUnreadable(let file, let line, let reason, _):
            "cannot read your ssh configuration to find the hosts it defines: \(line > 0 ? "'\(file)' line \(line)" : "'\(file)'"): \(reason)"
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
        case .gitNotInstalled:
            "Install git (Debian: apt install git), then run this again."
        case .signUsage:
            "hostbook signs as 'ssh-keygen -Y sign -n NAMESPACE -f PUBLIC_KEY_FILE [FILE ...]'."
        case .gitConfigFailed:
            "The key is set up in hostbook; fix what git says, then run this again."
        case .notAGitRepository(.some):
            "Give the folder of a repository with --repo (make one with 'git init'), or use --global."
        case .notAGitRepository(nil):
            "Run this inside a repository, or give one with --repo PATH, or use --global."
        case .noGitEmail:
            "Give it with --email E (it is also set as user.email there)."
        case .gitEmailRefused:
            "Give another email with --email E."
        case .bundleURLRefused:
            "Give the repository's URL or path as git clone takes it (for a password, use git's credential helper or an SSH URL)."
        case .bundleFileNotWritten:
            "Check that the folder exists and is writable (-o DIR)."
        case .bundleFileTooLarge, .gitFileTooLarge:
            "A bundle file that large is not one hostbook wrote."
        case .gitTimedOut:
            "Check the URL and your network, then run the command again."
        case .exportFolderNotABundle:
            "Export into another folder with -o DIR, or remove that file."
        case .exportFolderHoldsOther(_, _, let bundle):
            "Export bundle '\(bundle)' into its own folder with -o DIR."
        case .bundleSerialExhausted(let bundle, _):
            "Export bundle '\(bundle)' under a new name into a new folder, and have subscribers trust and subscribe to that."
        case .exportFolderNotSigned, .exportFolderSignerUnknown:
            "Check who changed that folder (git log -p); restore the bundle.txt and bundle.txt.sig you exported, or export into a new folder with -o DIR."
        case .bundleUnreadable:
            "It was signed, so its publisher made it: ask them to export it again with this hostbook."
        case .keyCannotSignBundles:
            "Sign with an Ed25519, ECDSA or RSA key."
        case .bundleSignatureInvalid:
            "The bundle or its signature was changed after it was signed; ask its publisher for a freshly exported one."
        case .installPathNotWritable:
            "Set XDG_CONFIG_HOME to a plainer folder."
        case .userSSHConfigUnreadable:
            "hostbook never writes a Host block that would override one of yours, so it needs to read them; fix the file (ssh refuses it too)."
        case .bundleFileNotRead, .bundleNameRefused, .folderNotCreated, .gitListingUnknown, .programNotRun,
             .signFileNotRead, .signInputNotRead, .signatureFileNotWritten, .signatureNotWritten:
            nil
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

    /// What is wrong with `-Y sign`'s arguments.
    private static func words(_ problem: SignUsageProblem) -> String {
        switch problem {
        case .needsValue(let option): "\(option) needs a value"
        case .unsupportedSigningOption(let option): "the option -O \(option) is not supported (only hashalg=sha256 or sha512)"
        case .unsupportedHashAlgorithm(let name): "hashalg must be sha256 or sha512, not \(name)"
        case .unsupportedOption(let option): "the option \(option) is not supported"
        case .missingNamespace: "-n NAMESPACE is missing"
        case .missingKeyFile: "-f KEYFILE is missing"
        }
    }
}
