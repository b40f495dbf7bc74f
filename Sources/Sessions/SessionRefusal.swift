// What the Sessions library refuses, as data: each case names what was refused and carries
// the names, paths and values the caller needs to say so. The executable words each case,
// escapes the values and maps the case to an exit code (Sources/hostbook, SessionRefusal+
// Presentation.swift), so no message, hint or escape is made in this library. SessionError
// still carries the refusals not yet moved here.
public enum SessionRefusal: Error, Sendable, Equatable {
    /// No saved key called `name` (not found).
    case keyNotFound(name: String)
    /// `bundle subscribe` of a bundle already subscribed to, from `url` (rejected).
    case bundleAlreadySubscribed(bundle: String, url: String)
    /// No signer is trusted for `bundle`, so nothing of it can be taken in (rejected).
    case noTrustedSigner(bundle: String)
    /// The bundle's clone `folder` exists but its origin is not `url` (rejected).
    case notAClone(folder: String, url: String)
    /// No subscription to `bundle`; `update` says how to subscribe, the others how to list (not found).
    case notSubscribed(bundle: String, updating: Bool)
    /// The head of `bundle`'s repository has no bundle text file called `file` (rejected).
    case noBundleAtHead(bundle: String, file: String)
    /// The repository subscribed to as `subscribedAs` now holds bundle `name` (rejected).
    case bundleRenamed(subscribedAs: String, name: String)
    /// `bundle` is signed by a key that is not one of its trusted signers (rejected).
    case untrustedSigner(bundle: String, fingerprint: String, signerLine: String)
    /// Key `key` is restricted to `namespaces`, which do not include `namespace` (rejected).
    case namespaceNotAllowed(key: String, namespaces: [String], namespace: String)
    /// The bundle text at `path` has no `.sig` beside it (rejected).
    case bundleNotSigned(path: String)
    /// `file` in `folder` at `commit` (12 hex digits) has git mode `mode`: a symbolic link
    /// (120000), a submodule (160000) or another non-file (rejected).
    case notAPlainFile(file: String, folder: String, commit: String, mode: String)
    /// `allowed_signers` at `path` could not be written: `reason` (failed).
    case allowedSignersNotWritten(path: String, reason: String)

    // MARK: A `hostbook ssh` plan (SSHPlan) and its ssh configuration (SSHSessionConfig)

    /// No saved host called `name`; `nearest`: the saved name it most likely meant (not found).
    case hostNotFound(name: String, nearest: String?)
    /// No saved snippet called `name` (not found).
    case snippetNotFound(name: String)
    /// The jump hosts of `host` loop back to `at` (failed).
    case jumpChainLoops(host: String, at: String)
    /// The jump chain of `host` is longer than JumpChain.maxHosts (failed).
    case jumpChainTooLong(host: String)
    /// `jump`, named as the jump host of `of`, is not a saved host (not found).
    case jumpHostMissing(jump: String, of: String)
    /// `key`, named by host `host`, is not a saved key (removed after the host was read) (not found).
    case hostKeyMissing(key: String, host: String)
    /// A name or value ssh_config cannot express: `reason` says which (failed).
    case sshConfigNotWritable(reason: String)

    // MARK: A signature made through the standing agent (AgentSSHSIGSigner); all failed

    /// Nothing answers at `socket`; `purpose` names what is signed through the agent
    /// ("bundles", "git commits and tags").
    case agentNotRunning(socket: String, purpose: String)
    /// The agent at `socket` did not answer the signature request.
    case agentDidNotAnswer(socket: String)
    /// The agent at `socket` is locked: it offers no keys.
    case agentLocked(socket: String)
    /// The agent refused to sign with key `key`.
    case agentRefusedToSign(key: String)
    /// The agent's signature with key `key` does not verify: `reason`.
    case agentSignatureDoesNotVerify(key: String, reason: String)
}
