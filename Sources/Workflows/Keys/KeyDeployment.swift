// `keys deploy`'s work, as ssh-copy-id does it through hostbook's own sessions. Three
// steps, each one session the caller runs (its `session`: ssh's exit status):
//   1. log in as the host is saved and run AuthorizedKeysAppend's command, which appends the
//      public key to ~/.ssh/authorized_keys unless it is there;
//   2. log in again with that key only, served by the session's agent, running `exit 0`;
//   3. only then attach the key to the host; the stored password is deleted from the vault
//      unless kept.
// A failed step changes nothing saved; a key appended in step 1 stays on the server.
import Credentials
import HostStore
import KeyFormats
import Sessions

public struct KeyDeployment {
    public let context: KeysContext
    public let key: StoredKey

    public struct Result {
        /// The host as saved now.
        public let host: Host
        /// The key was added (false: it was in authorized_keys already).
        public let added: Bool
        public let passwordRemoved: Bool
    }

    /// The key `name`; one kept for SSHSIG namespaces never logs in (the agents refuse it),
    /// so it is refused before anything is sent to a server.
    public init(key name: String, workspace: Workspace) throws {
        (context, key) = try KeysContext.existingKey(workspace, named: name)
        let namespaces = try KeySigningUse.load(context.database, key).namespaces
        if !namespaces.isEmpty { throw KeysRefusal.keyOnlySigns(key.name, namespaces: namespaces.sorted()) }
    }

    /// Deploys the key to the target of `plan` (`target`: user@hostname:port, as said);
    /// `batchFirst`: the first login may not ask on the terminal.
    public func deploy(_ plan: SSHPlan, target: String, keepPassword: Bool, batchFirst: Bool, workspace: Workspace,
                       session: (SSHPlan, [String]) throws -> Int32) throws -> Result {
        let host = plan.target.host
        let publicKey = try key.publicKey
        // 1. The key onto the server, logged in as the host is saved.
        let first = ["-T"] + (batchFirst ? ["-o", "BatchMode=yes"] : [])
        let appended = try session(plan, first + ["--", AuthorizedKeysAppend.remoteCommand(publicKey, comment: key.comment)])
        switch appended {
        case AuthorizedKeysAppend.appended, AuthorizedKeysAppend.alreadyPresent: break
        case 255: throw KeysRefusal.deployLoginFailed(host: host.name, target: target, byPassword: host.auth == .password)
        default: throw KeysRefusal.deployAppendFailed(host: host.name, status: appended)
        }

        // 2. A login with the key alone, through the session's agent.
        let verified = try session(plan.withKeyOnly(key), ["-T", "-o", "BatchMode=yes", "-o", "PreferredAuthentications=publickey",
                                                          "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no",
                                                          "--", "exit 0"])
        guard verified == 0 else { throw KeysRefusal.deployVerifyFailed(key: key.name, host: host.name) }

        // 3. The host uses the key from now on; CredentialStore owns the order: the row
        // first, then the old password item.
        var changes = HostChanges()
        changes.key = .set(key.name)
        if !keepPassword && host.auth == .password { changes.password = .clear }
        let updated = try workspace.credentials().editHost(host.name, changes, password: nil).new
        return Result(host: updated, added: appended == AuthorizedKeysAppend.appended, passwordRemoved: changes.password == .clear)
    }
}
