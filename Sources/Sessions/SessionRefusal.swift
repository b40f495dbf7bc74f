// What the Sessions library refuses, as data: each case names what was refused and carries
// the names, paths and values the caller needs to say so. The executable words each case,
// escapes the values and maps the case to an exit code (Sources/hostbook,
// SessionRefusal+Presentation.swift), so no message, hint or escape is made in this library.
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

    // MARK: Files and programs (failed)

    /// The folder `path` could not be created: `reason`.
    case folderNotCreated(path: String, reason: String)
    /// The program at `program` (git) could not be started: `reason`.
    case programNotRun(program: String, reason: String)
    /// No `git` on PATH; `forBundles`: the bundle commands asked for it.
    case gitNotInstalled(forBundles: Bool)

    // MARK: git signing (GitSigningSetup, GitSignatureProgram)

    /// `hostbook -Y sign`'s arguments cannot be read: `problem` (rejected).
    case signUsage(SignUsageProblem)
    /// Standard input (the data to sign) could not be read: `reason` (failed).
    case signInputNotRead(reason: String)
    /// The signature could not be written to standard output: `reason` (failed).
    case signatureNotWritten(reason: String)
    /// `file`.sig could not be written: `reason` (failed).
    case signatureFileNotWritten(file: String, reason: String)
    /// The key file (`keyFile`) or a file to sign at `path` could not be opened (`opening`)
    /// or read: `reason`; `limit` set: it is longer than `limit` bytes (failed).
    case signFileNotRead(keyFile: Bool, path: String, opening: Bool, limit: Int?, reason: String)
    /// `git config NAME` failed; `gitSays`: the first line git wrote (failed).
    case gitConfigFailed(name: String, gitSays: String)
    /// `path` (nil: the current folder) is not in a git repository (failed).
    case notAGitRepository(path: String?)
    /// No email given and git's user.email is not set (`global`: globally) (rejected).
    case noGitEmail(global: Bool)
    /// `email` is refused: `problem` (GitSigningKeys.problem) (rejected).
    case gitEmailRefused(problem: String, email: String)

    // MARK: Team bundles (rejected unless said)

    /// A bundle name that breaks its rule: `problem` (BundleName.problem).
    case bundleNameRefused(problem: String)
    /// A repository URL git must not be given: `problem` (BundleGit.problem).
    case bundleURLRefused(problem: String)
    /// `file` of the bundle folder could not be written: `reason` (failed).
    case bundleFileNotWritten(file: String, reason: String)
    /// The bundle file at `path` could not be read: `reason` (failed).
    case bundleFileNotRead(path: String, reason: String)
    /// The bundle file at `path` is larger than `limit` bytes.
    case bundleFileTooLarge(path: String, limit: Int)
    /// `file` in `folder` at `commit` (12 hex digits) is larger than `limit` bytes.
    case gitFileTooLarge(file: String, folder: String, commit: String, limit: Int)
    /// git listed `file` in `folder` at `commit` in a form not known (failed).
    case gitListingUnknown(file: String, folder: String, commit: String)
    /// git gave no answer to `what` within `minutes` (failed).
    case gitTimedOut(what: String, minutes: Int)
    /// The bundle file at `path` in the export folder cannot be parsed: `reason` (failed).
    case exportFolderNotABundle(path: String, reason: String)
    /// The bundle file at `path` in the export folder is bundle `other`, not `bundle`.
    case exportFolderHoldsOther(path: String, other: String, bundle: String)
    /// The serial of `bundle` (`serial`) cannot be raised.
    case bundleSerialExhausted(bundle: String, serial: UInt64)
    /// The bundle at `path` in the export folder has no valid signature: `reason`.
    case exportFolderNotSigned(path: String, reason: String)
    /// The bundle at `path` in the export folder is signed by `fingerprint`, neither a key
    /// of the database nor a trusted signer of `bundle`.
    case exportFolderSignerUnknown(path: String, fingerprint: String, bundle: String)
    /// The signed bundle `shownAs` cannot be parsed: `reason`.
    case bundleUnreadable(shownAs: String, reason: String)
    /// Key `key` of type `type` cannot sign bundles (a security key's, DSA).
    case keyCannotSignBundles(key: String, type: String)
    /// The bundle's signature does not verify: `reason`.
    case bundleSignatureInvalid(reason: String)

    // MARK: The installed ssh configuration

    /// The path `path` cannot be written in ssh_config: `reason` (failed).
    case installPathNotWritable(path: String, reason: String)
    /// The user's ssh configuration cannot be read: `file`, `line` (0: none), `reason`;
    /// `tooLarge`: past the load's bounds (rejected), else failed.
    case userSSHConfigUnreadable(file: String, line: Int, reason: String, tooLarge: Bool)
}

/// What is wrong with `hostbook -Y sign`'s arguments.
public enum SignUsageProblem: Sendable, Equatable {
    /// `option` is the last argument, with no value.
    case needsValue(option: String)
    /// `-O option`: only hashalg= is supported.
    case unsupportedSigningOption(String)
    /// `-O hashalg=` names another algorithm.
    case unsupportedHashAlgorithm(String)
    /// An option `ssh-keygen -Y sign` has that hostbook does not.
    case unsupportedOption(String)
    case missingNamespace
    case missingKeyFile
}
