// The words of each SSHSessionRefusal (Workflows): what is wrong, what to do, and the
// documented exit code (docs/command-line.md, "Exit codes"). Paths and names that come from
// outside are escaped here as they were when these were CLIErrors, and the whole line again
// when it is printed (Hostbook.report).
import KeyFormats
import Workflows

extension SSHSessionRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .hostCertificateRefused: .rejected
        default: .failure
        }
    }

    var message: String {
        switch self {
        case .socketFolderUnavailable(let reason):
            "cannot prepare the socket folder: \(reason)"
        case .agentNotStarted(let reason):
            "cannot start the session's agent: \(reason)"
        case .sessionFolderNotCreated(let parent, let reason):
            "cannot create the session folder in \(parent.escapedForTerminal): \(reason)"
        case .fileNotCreated(let path, let reason):
            "cannot create \(path.escapedForTerminal): \(reason)"
        case .fileNotWritten(let path, let reason):
            "cannot write \(path.escapedForTerminal): \(reason)"
        case .pipeNotCreated(let reason):
            "cannot create a pipe: \(reason)"
        case .logRelayNotStarted(let reason):
            reason
        case .threadNotStarted(let reason):
            "cannot start a thread: \(reason)"
        case .sshNotFound:
            "ssh was not found on PATH"
        case .sshTooOld(let path, let banner, let major, let minor):
            "\(path) is \(major == 0 ? "'\(banner.escapedForTerminal)'" : "OpenSSH \(major).\(minor)"); hostbook ssh needs OpenSSH 8.5 or later (KnownHostsCommand)"
        case .sshNotStarted(let path, let reason):
            "cannot run \(path): \(reason)"
        case .passwordNotInVault(let host):
            "the password of '\(host)' is not in the vault"
        case .passwordUnreadable(let host, let vault):
            "cannot read the password of '\(host)': \(vault.message)"
        case .unreadableHostKey(let type):
            "ssh passed a host key hostbook cannot read (\(type.escapedForTerminal))"
        case .hostCertificateRefused(let lookup, let presented, let problem):
            Self.certificateRefusal(lookup: lookup, presented: presented, problem: problem)
        }
    }

    var hint: String? {
        switch self {
        case .sshNotFound:
            "Install the openssh-client package (OpenSSH 8.5 or later)."
        case .sshTooOld:
            "Install a newer openssh-client, or put a newer ssh first on PATH."
        case .passwordNotInVault(let host):
            "Store it again with 'hostbook edit \(host) --password-stdin'."
        case .passwordUnreadable(_, let vault):
            vault.hint ?? "Run 'hostbook vault status' to see what is wrong."
        case .hostCertificateRefused(_, .certificate, _):
            "Nothing was trusted. The host needs a new certificate from its CA (hostbook ca sign CA --host ...); its plain key is not offered for approval."
        default:
            nil
        }
    }

    /// Why a host certificate a trusted CA signed is refused: the trust core's reason, with
    /// the dates or names that make it plain.
    private static func certificateRefusal(lookup: HostLookupName, presented: PresentedHostKey, problem: String?) -> String {
        guard case .certificate(let cert) = presented else { return "the host certificate is not acceptable" }
        var why = problem ?? "it is not acceptable"
        if why.hasSuffix("expired") { why += " (valid until \(CertificateValidity.text(cert.validBefore)))" }
        if why.hasSuffix("not valid yet") { why += " (valid from \(CertificateValidity.text(cert.validAfter)))" }
        if why.contains("host name") && !cert.principals.isEmpty { why += "; it lists \(cert.principals.joined(separator: ", "))" }
        return "refusing the host certificate of \(KnownHostsAccess.describe(lookup)) (key id '\(cert.keyID)', serial \(cert.serial)), signed by a trusted certificate authority: \(why)"
    }
}
