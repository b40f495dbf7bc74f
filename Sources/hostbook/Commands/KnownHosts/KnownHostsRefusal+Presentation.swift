// The words of each KnownHostsRefusal: what is wrong, what to do, and the documented exit
// code (docs/command-line.md, "Exit codes"). The values are the workflow's raw data; outside
// text is quoted here and every line escaped when printed (Hostbook.report).
import KeyFormats
import Workflows

extension KnownHostsRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .keyscanNotFound, .keyscanDidNotRun, .scanFailed, .noHostKeysFound, .fileUnreadable: .failure
        case .scanNeedsAnswer, .approvalNeedsConfirmation: .inputNeeded
        case .notAHostName, .pastedKeyLines, .pastedKeyInvalid, .pastedKeyMarker, .pastedKeyForAnotherHost: .usage
        case .fileTooLarge, .fingerprintMismatch: .rejected
        case .revokedNotApprovable: .hostKeyRevoked
        case .notApproved: .hostKeyUnknown
        case .changedKeyKept, .changedKeyNotReplaced: .hostKeyChanged
        case .rotationHostUnknown: .notFound
        }
    }

    var message: String {
        switch self {
        case .notAHostName(let host, let reason):
            "'\(PrintableText.quoted(host))' is not a host name: \(reason)"
        case .keyscanNotFound:
            "ssh-keyscan was not found"
        case .keyscanDidNotRun(let reason):
            "cannot run ssh-keyscan: \(reason)"
        case .scanFailed(let host, let port, let failure):
            "cannot scan \(Self.target(host, port)): " + Self.failureText(failure)
        case .noHostKeysFound(let lookup):
            "ssh-keyscan found no host keys for \(KnownHostsAccess.describe(lookup))"
        case .scanNeedsAnswer(_, _, let asking):
            "scan asks about new or changed keys but \(Self.why(asking))"
        case .pastedKeyLines(let count):
            "--key holds \(count) lines; give one key"
        case .pastedKeyInvalid(let reason):
            "--key is not a valid host key: \(reason)"
        case .pastedKeyMarker(let token):
            "--key is a \(token) line, not a host key"
        case .pastedKeyForAnotherHost(let hosts, let lookup):
            "the --key line is for '\(PrintableText.quoted(hosts))', not \(KnownHostsAccess.describe(lookup))"
        case .fileUnreadable(let path, let reason):
            "cannot read '\(path)': \(reason)"
        case .fileTooLarge(let path):
            "'\(path)' is larger than 1 GiB; is it really a known_hosts file?"
        case .fingerprintMismatch(let given, let key):
            "the fingerprint \(given) does not match the key (\(key.sha256Fingerprint))"
        case .revokedNotApprovable(let lookup, let key):
            "the \(KnownHostsAccess.describe(key)) is revoked for \(KnownHostsAccess.describe(lookup)); it cannot be approved"
        case .approvalNeedsConfirmation(let lookup, let key, let asking):
            "approving the new \(KnownHostsAccess.describe(key)) for \(KnownHostsAccess.describe(lookup)) needs confirmation but \(Self.why(asking))"
        case .notApproved(let lookup):
            "not approved: the key for \(KnownHostsAccess.describe(lookup)) stays unknown"
        case .changedKeyKept(let lookup):
            "the host key for \(KnownHostsAccess.describe(lookup)) has changed; the stored key was kept"
        case .changedKeyNotReplaced(let lookup, let stored, _):
            "the host key for \(KnownHostsAccess.describe(lookup)) has changed (stored: \(stored.map(KnownHostsAccess.describeStored).joined(separator: ", "))); it was not replaced"
        case .rotationHostUnknown(let lookup):
            "\(KnownHostsAccess.describe(lookup)) is neither a saved host nor in the known hosts"
        }
    }

    var hint: String? {
        switch self {
        case .notAHostName:
            "Give one host name or address (the port with --port); patterns can be imported from a known_hosts file."
        case .keyscanNotFound:
            "Install the openssh-client package."
        case .keyscanDidNotRun, .fileUnreadable, .fileTooLarge, .revokedNotApprovable, .notApproved, .changedKeyKept:
            nil
        case .scanFailed(_, _, let failure):
            Self.failureHint(failure)
        case .noHostKeysFound:
            "Check the host name and port, and that the host is reachable."
        case .scanNeedsAnswer(let lookup, let key, _):
            "Check the fingerprint, then run 'hostbook known-hosts approve \(ShellQuote.quote(lookup.host))"
                + (lookup.port == HostLookupName.defaultPort ? "" : " --port \(lookup.port)")
                + " --key \(ShellQuote.quote("\(key.type) \(key.base64)")) --fingerprint \(key.sha256Fingerprint)'."
        case .pastedKeyLines:
            "Pick one line of the ssh-keyscan output, e.g. its ssh-ed25519 line."
        case .pastedKeyInvalid, .pastedKeyMarker:
            KnownHostsAccess.keyHint
        case .pastedKeyForAnotherHost:
            "Scan the host you mean (ssh-keyscan -p PORT HOST), or give the key as \"TYPE BASE64\"."
        case .fingerprintMismatch:
            "Check the fingerprint with the host's administrator; nothing was changed."
        case .approvalNeedsConfirmation:
            "Use --yes, or --fingerprint SHA256:... to approve only that key."
        case .changedKeyNotReplaced(_, _, let key):
            "If the new key is genuine, replace it with --replace --fingerprint \(key.sha256Fingerprint)."
        case .rotationHostUnknown:
            "Give a saved host's name ('hostbook list') or a host in 'hostbook known-hosts list'; nothing was changed."
        }
    }

    /// Why nobody can be asked.
    static func why(_ asking: Asking) -> String {
        asking == .refused ? "--no-input was given" : "there is no terminal"
    }

    /// `'host'`, with ` port N` unless it is 22.
    private static func target(_ host: String, _ port: Int) -> String {
        port == 22 ? "'\(PrintableText.quoted(host))'" : "'\(PrintableText.quoted(host))' port \(port)"
    }

    private static func failureText(_ failure: KeyscanFailure) -> String {
        switch failure {
        case .doesNotResolve(let why): "the name does not resolve (\(PrintableText.quoted(why)))"
        case .refused: "the connection was refused"
        case .timedOut(let seconds): "timed out after \(seconds) s without an SSH answer"
        case .noKeys: "the port answered, but not with an SSH host key"
        case .unreachable(let why): why
        }
    }

    private static func failureHint(_ failure: KeyscanFailure) -> String {
        switch failure {
        case .doesNotResolve: "Check the spelling of the host name, or give its address."
        case .refused: "Is an SSH server listening there? Give its port with --port N."
        case .timedOut: "Check the host and port, and any firewall on the way; --timeout SECONDS allows more time."
        case .noKeys: "Check the port (--port N): is an SSH server listening there?"
        case .unreachable: "Check the host name, the port and the network."
        }
    }
}
