// `hostbook bundle subscribe NAME GIT-URL-OR-PATH` and `hostbook bundle update [NAME]`:
// the bundle's git repository is cloned beside the database (FOLDER/bundles/NAME, where
// FOLDER holds the database: $XDG_DATA_HOME/hostbook by default), and each update fetches
// it. The two files are read from the fetched commit (BundleGit.files) and checked
// (BundleIntake) before anything is written; the commit is recorded as applied
// (refs/hostbook/applied; the clone has no working tree) only once it was applied, so the
// clone always names what this database holds. A refused
// bundle leaves the database as it was (the clone keeps what it fetched; the next update
// fetches again). A subscribe that fails before its bundle is applied (git, a bad
// signature, a refused bundle) removes the clone it made and records no subscription; a
// clone that was there before (of the same URL) is fetched and kept.
// Applying is the caller's `apply` (the executable's: CredentialStore.applyBundle, which
// also deletes the vault passwords of the hosts a bundle drops; Sessions reaches no vault).
// An error it returns (the rows written, an item left over) is thrown once the subscription
// and the commit are recorded, so the clone still names what the database holds; every
// error after an apply is thrown as BundleFailedAfterApply.
#if canImport(Glibc)
import Glibc
#endif
public import HostStore
import ImportFormats
import KeyFormats
import System

public struct BundleSubscriber {
    public struct Outcome: Sendable {
        public let name: String
        public let url: String
        public let intake: BundleIntake
        /// The commit applied.
        public let revision: String
        public let folder: String
        /// The URL a `--replace` moved the subscription from (nil: a new subscription).
        public var replacedURL: String? = nil
    }

    /// What `unsubscribe` did: the plan that removed what the bundle brought (nil when the
    /// hosts were kept or it never was applied) and the clone removed.
    public struct Unsubscribed: Sendable {
        public let name: String
        public let url: String
        public let removal: BundlePlan?
        public let folder: String
    }

    /// Writes a plan: throws when nothing was written; returns an error for what is left
    /// over once it was (see CredentialStore.applyBundle), nil when all went.
    public typealias Apply = (BundlePlan) throws -> (any Error)?

    public let database: HostDatabase
    public let git: BundleGit
    /// FOLDER/bundles.
    public let bundlesFolder: String
    let apply: Apply
    /// The ssh command git runs for a repository URL (BundleGitSSH.command, through the
    /// caller: hostbook's path and agent socket are the program's); nil: the user's ssh.
    public var sshCommand: (String) -> [String]? = { _ in nil }

    public init(database: HostDatabase, databasePath: String, git: BundleGit, apply: @escaping Apply) {
        self.database = database
        self.git = git
        self.bundlesFolder = ParentFolder.of(databasePath) + "/bundles"
        self.apply = apply
    }

    public func folder(of name: String) -> String { bundlesFolder + "/" + name }

    /// Subscribes to bundle `name` at `url`. `replace`: an existing subscription moves to
    /// `url` (its clone is removed and `url` cloned and checked as for a new one; when that
    /// fails the subscription keeps its old URL, and the next update clones it again).
    public func subscribe(name: String, url: String, replace: Bool = false) throws -> Outcome {
        if let problem = BundleName.problem(name) { throw SessionRefusal.bundleNameRefused(problem: problem) }
        if let problem = BundleGit.problem(url: url) { throw SessionRefusal.bundleURLRefused(problem: problem) }
        let store = BundleStore(database: database)
        let current = try store.subscriptions().first(where: { $0.name.lowercased() == name.lowercased() })
        if let current, !replace {
            throw SessionRefusal.bundleAlreadySubscribed(bundle: name, url: current.url)
        }
        if try store.signers(bundle: name).isEmpty {
            throw SessionRefusal.noTrustedSigner(bundle: name)
        }
        let folder = folder(of: name)
        let git = git.reaching(sshCommand: sshCommand(url))
        if current != nil, AtomicFile.exists(folder) { FolderTree.remove(folder) }
        let revision: String
        let intake: BundleIntake
        let leftover: (any Error)?
        let madeFolder = !AtomicFile.exists(folder)
        do {
            if !madeFolder {
                guard git.origin(folder) == url else {
                    throw SessionRefusal.notAClone(folder: folder, url: url)
                }
                revision = try git.fetch(folder)
            } else {
                try Self.makeFolder(bundlesFolder)
                try git.clone(url, into: folder)
                revision = try git.revision(folder, "HEAD")
            }
            intake = try check(folder, revision, expectedName: name)
            leftover = intake.plan.writesNothing ? nil : try apply(intake.plan)
        } catch {
            // Nothing was applied: the clone this subscribe made goes with it.
            if madeFolder { FolderTree.remove(folder) }
            throw error
        }
        try afterApply(intake.plan, leftover) {
            try store.subscribe(bundle: name, url: url)
            try git.recordApplied(folder, revision)
        }
        var outcome = Outcome(name: name, url: url, intake: intake, revision: revision, folder: folder)
        outcome.replacedURL = current?.url
        return outcome
    }

    /// Forgets the subscription to bundle `name` and removes its clone; unless `keepHosts`,
    /// first removes what the bundle brought (its hosts, snippets and host keys, through the
    /// caller's `apply`, so their passwords go too). Not subscribed: `.notFound`. An error
    /// once the rows went is thrown as BundleFailedAfterApply.
    public func unsubscribe(name: String, keepHosts: Bool) throws -> Unsubscribed {
        let store = BundleStore(database: database)
        guard let subscription = try store.subscriptions().first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw SessionRefusal.notSubscribed(bundle: name, updating: false)
        }
        var removal: BundlePlan? = nil
        var leftover: (any Error)? = nil
        if !keepHosts, let plan = try store.planRemoval(bundle: subscription.name), !plan.changesNothing {
            leftover = try apply(plan)
            removal = plan
        }
        let folder = folder(of: subscription.name)
        do {
            try store.unsubscribe(bundle: subscription.name)
            if AtomicFile.exists(folder) { FolderTree.remove(folder) }
            if let leftover { throw leftover }
        } catch {
            throw removal == nil ? error : BundleFailedAfterApply(underlying: error)
        }
        return Unsubscribed(name: subscription.name, url: subscription.url, removal: removal, folder: folder)
    }

    /// The subscriptions `update` goes through: the one named (not found: exit 4), else all.
    public func subscriptions(named name: String?) throws -> [BundleSubscription] {
        let all = try BundleStore(database: database).subscriptions()
        guard let name else { return all }
        guard let one = all.first(where: { $0.name == name }) else {
            throw SessionRefusal.notSubscribed(bundle: name, updating: true)
        }
        return [one]
    }

    public func update(_ subscription: BundleSubscription) throws -> Outcome {
        let folder = folder(of: subscription.name)
        let git = git.reaching(sshCommand: sshCommand(subscription.url))
        let revision: String
        if AtomicFile.exists(folder) {
            revision = try git.fetch(folder)
        } else {
            try Self.makeFolder(bundlesFolder)
            try git.clone(subscription.url, into: folder)
            revision = try git.revision(folder, "HEAD")
        }
        let intake = try check(folder, revision, expectedName: subscription.name)
        let leftover = intake.plan.writesNothing ? nil : try apply(intake.plan)
        try afterApply(intake.plan, leftover) { try git.recordApplied(folder, revision) }
        return Outcome(name: subscription.name, url: subscription.url, intake: intake, revision: revision, folder: folder)
    }

    /// Runs `rest` (what follows an apply), then throws `leftover`; once `plan` was written,
    /// any error is thrown as BundleFailedAfterApply.
    private func afterApply(_ plan: BundlePlan, _ leftover: (any Error)?, _ rest: () throws -> Void) throws {
        do {
            try rest()
            if let leftover { throw leftover }
        } catch {
            throw plan.writesNothing ? error : BundleFailedAfterApply(underlying: error)
        }
    }

    private func check(_ folder: String, _ revision: String, expectedName: String) throws -> BundleIntake {
        let files = try git.files(folder, at: revision)
        guard let text = files.text else {
            throw SessionRefusal.noBundleAtHead(bundle: expectedName, file: BundleFolder.textName)
        }
        return try BundleIntake.check(text: text, signature: files.signature, shownAs: folder + "/" + BundleFolder.textName,
                                      expectedName: expectedName, database: database)
    }

    /// Creates `path` and its missing parents, 0700.
    static func makeFolder(_ path: String) throws {
        do {
            try PrivateFolder.make(path)
        } catch {
            throw SessionRefusal.folderNotCreated(path: error.path, reason: "\(error.errno)")
        }
    }
}
