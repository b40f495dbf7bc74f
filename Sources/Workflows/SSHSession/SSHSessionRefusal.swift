// What stops a `hostbook ssh` session (or its KnownHostsCommand, `hostbook known-hosts
// lookup`) before or around ssh: the raw names, paths and reasons, worded by the executable
// (SSHSessionRefusal+Presentation). ssh's own failures are not here: once ssh has started,
// its exit status is the outcome (SSHSessionOutcome).
public import KeyFormats
public import Vault

public enum SSHSessionRefusal: Error, Sendable {
    /// hostbook's private socket folder could not be made ready.
    case socketFolderUnavailable(reason: String)
    /// The session's agent or askpass socket could not be started.
    case agentNotStarted(reason: String)
    /// The session's own folder (SessionFolder) could not be made in `parent`.
    case sessionFolderNotCreated(parent: String, reason: String)
    /// A file of the session (or the FIFO of ssh's log) could not be created.
    case fileNotCreated(path: String, reason: String)
    /// A file of the session could not be written.
    case fileNotWritten(path: String, reason: String)
    /// The stop pipe of ssh's log relay could not be made.
    case pipeNotCreated(reason: String)
    /// The log relay's thread could not be started (`reason` says all).
    case logRelayNotStarted(reason: String)
    /// The thread that reads the session's secrets could not be started.
    case threadNotStarted(reason: String)
    /// No `ssh` on PATH.
    case sshNotFound
    /// The ssh on PATH is older than 8.5 (no KnownHostsCommand), or not OpenSSH (`major` 0).
    case sshTooOld(path: String, banner: String, major: Int, minor: Int)
    /// ssh (at `path`) could not be started.
    case sshNotStarted(path: String, reason: String)
    /// A hop's password is not in the vault.
    case passwordNotInVault(host: String)
    /// The vault failed while a hop's password was read.
    case passwordUnreadable(host: String, vault: VaultError)
    /// ssh passed the lookup a host key (of type `type`) that cannot be read.
    case unreadableHostKey(type: String)
    /// A host certificate signed by a CA trusted for the name, but not acceptable
    /// (`problem`: the trust core's reason): refused, its plain key never offered for approval.
    case hostCertificateRefused(lookup: HostLookupName, presented: PresentedHostKey, problem: String?)
}
