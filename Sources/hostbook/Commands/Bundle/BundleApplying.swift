// How `bundle import`, `subscribe` and `update` write a plan: through CredentialStore
// (applyBundle), which applies the rows and then deletes the vault passwords of the hosts the
// bundle dropped, in the order every write across the two stores follows. A password left
// over is reported after the bundle is applied, as a failure that still refreshes the
// installed ssh configuration (FailedAfterChanges).
import Credentials
import HostStore
import Sessions

enum BundleApplying {
    /// A subscriber on the database, writing through CredentialStore.
    /// `throughHostbook`: git's ssh reaches a host hostbook knows through its trust core and
    /// the agent at `--socket` (subscribe, update; the command declares `--socket`).
    static func subscriber(_ inv: Invocation, git: BundleGit, throughHostbook: Bool = true) throws -> BundleSubscriber {
        let database = try HostStoreAccess.openForWriting(inv)
        let credentials = CredentialStore(database: database)
        var subscriber = BundleSubscriber(database: database, databasePath: inv.databasePath, git: git,
                                          apply: { try credentials.applyBundle($0) })
        // git reaches a host hostbook knows through hostbook's trust core and agent.
        if throughHostbook, let hostbook = try? SSHPaths.executable(), let socket = try? AgentSocket.path(inv) {
            let databasePath = SSHPaths.absolute(inv.databasePath)
            subscriber.sshCommand = { url in
                try? BundleGitSSH.command(url: url, database: database, hostbookPath: hostbook, databasePath: databasePath, agentSocket: socket)
            }
        }
        return subscriber
    }

    /// For `bundle update`: with no database yet nothing is subscribed to, and nothing is
    /// created to say so (a subscriber on an empty in-memory database, which applies nothing).
    static func subscriberIfSubscribed(_ inv: Invocation, git: BundleGit) throws -> BundleSubscriber {
        guard try HostStoreAccess.openForReading(inv) == nil else { return try subscriber(inv, git: git) }
        return BundleSubscriber(database: try HostDatabase.inMemory(), databasePath: inv.databasePath, git: git,
                                apply: { _ in nil })
    }

    /// Writes `plan` on `database`; a leftover password is thrown as FailedAfterChanges.
    static func apply(_ plan: BundlePlan, database: HostDatabase) throws {
        if let leftover = try CredentialStore(database: database).applyBundle(plan) {
            throw FailedAfterChanges(underlying: leftover)
        }
    }

    /// `error`, as FailedAfterChanges when the bundle was applied before it
    /// (BundleFailedAfterApply: the subscription's or the applied commit's record, a leftover password).
    static func afterApply(_ error: any Error) -> any Error {
        if let failed = error as? BundleFailedAfterApply { return FailedAfterChanges(underlying: failed.underlying) }
        return error is CredentialStoreError ? FailedAfterChanges(underlying: error) : error
    }
}
