// The words of the SessionRefusal cases of git signing, team bundles, their files and
// programs, and the installed configuration: what is wrong, what to do, and the documented
// exit code (docs/command-line.md, "Exit codes"). SessionRefusal+Presentation.swift hands
// these cases here; every value is escaped when the line is printed (Hostbook.report).
import Sessions

extension SessionRefusal {
    var bundleExitCode: ExitCode {
        switch self {
        case .signUsage, .noGitEmail, .gitEmailRefused, .bundleNameRefused, .bundleURLRefused, .bundleFileTooLarge,
             .gitFileTooLarge, .exportFolderHoldsOther, .bundleSerialExhausted, .exportFolderNotSigned,
             .exportFolderSignerUnknown, .bundleUnreadable, .keyCannotSignBundles, .bundleSignatureInvalid:
            .rejected
        case .userSSHConfigUnreadable(_, _, _, let tooLarge):
            tooLarge ? .rejected : .failure
        default:
            .failure
        }
    }

    var bundleMessage: String {
        switch self {
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
        default:
            ""
        }
    }

    var bundleHint: String? {
        switch self {
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
        default:
            nil
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
