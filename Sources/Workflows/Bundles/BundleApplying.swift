// How `bundle import`, `subscribe`, `update` and `unsubscribe` write a plan: through
// CredentialStore (applyBundle), which applies the rows and then deletes the vault passwords
// of the hosts the bundle dropped, in the order every write across the two stores follows. A
// password left over is handed back after the bundle is applied: the executable reports it
// as a failure that still refreshes the installed ssh configuration.
import Credentials
import HostStore
import Sessions
import System

public enum BundleApplying {
    /// A subscriber on the workspace's database, writing through CredentialStore.
    /// `agentSocket` finds the agent's socket (which may create its folder: asked only once
    /// hostbook's own path is known): git's ssh reaches a host hostbook knows through its
    /// trust core and the agent there (subscribe, update); nil: git's own ssh (unsubscribe).
    public static func subscriber(_ workspace: Workspace, git: BundleGit, agentSocket: (() -> String?)?) throws -> BundleSubscriber {
        let database = try workspace.database()
        let credentials = CredentialStore(database: database)
        var subscriber = BundleSubscriber(database: database, databasePath: workspace.databasePath, git: git,
                                          apply: { try credentials.applyBundle($0) })
        // git reaches a host hostbook knows through hostbook's trust core and agent.
        if let agentSocket, let hostbook = try? ExecutablePath.ofThisProcess(), let socket = agentSocket() {
            let databasePath = ExecutablePath.absolute(workspace.databasePath)
            subscriber.sshCommand = { url in
                try? BundleGitSSH.command(url: url, database: database, hostbookPath: hostbook, databasePath: databasePath, agentSocket: socket)
            }
        }
        return subscriber
    }

    /// For `bundle update`: with no database yet nothing is subscribed to, and nothing is
    /// created to say so (a subscriber on an empty in-memory database, which applies nothing).
    public static func subscriberIfSubscribed(_ workspace: Workspace, git: BundleGit, agentSocket: (() -> String?)?) throws -> BundleSubscriber {
        guard try workspace.existingDatabase() == nil else { return try subscriber(workspace, git: git, agentSocket: agentSocket) }
        return BundleSubscriber(database: try HostDatabase.inMemory(), databasePath: workspace.databasePath, git: git,
                                apply: { _ in nil })
    }

    /// Writes `plan` on `database`; the error of a password left over, or nil.
    public static func apply(_ plan: BundlePlan, database: HostDatabase) throws -> (any Error)? {
        try CredentialStore(database: database).applyBundle(plan)
    }

    /// Whether `error` came after the bundle was applied (BundleFailedAfterApply: the
    /// subscription's or the applied commit's record, a leftover password; or the vault's
    /// CredentialStoreError); its underlying error then, else nil.
    public static func failedAfterApply(_ error: any Error) -> (any Error)? {
        if let failed = error as? BundleFailedAfterApply { return failed.underlying }
        return error is CredentialStoreError ? error : nil
    }
}
