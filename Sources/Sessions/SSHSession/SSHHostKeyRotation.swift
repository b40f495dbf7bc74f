// Host-key rotation in a `hostbook ssh` session (docs/known-hosts.md, "Rotation"): for each
// hop the rules let learn (HostKeyRotation.start), the session gives ssh a known_hosts file
// holding exactly the entries the store trusts for that hop's name and port, with
// `UpdateHostKeys yes` (SSHHostBlock). ssh then checks the server's key against it (a key
// found there keeps UpdateHostKeys on; one found only through KnownHostsCommand — a first
// use, a bare-name trust, a certificate — turns it off, sshconnect.c check_host_key), asks
// the server to prove each new key and edits the file. After ssh ends, the store takes those
// edits through KnownHostsStore.learnRotation, which decides again. Each hop has its own
// file, written only by its own ssh process (a jump host's is the `ssh -W` that ProxyJump
// starts), so a jump host learns its own keys on its own connection, never a target's.
//
// A first use approved on the terminal learns too, as OpenSSH's `StrictHostKeyChecking ask`
// does (sshconnect.c check_host_key: a key the user accepted is "hostkey_trusted" and keeps
// UpdateHostKeys on, where one found through KnownHostsCommand turns it off). For a hop no
// entry matches (`learnsOnFirstUse`), the session gives ssh an empty file, `UpdateHostKeys
// yes` and `StrictHostKeyChecking ask`; hostbook's lookup asks the user and records the
// approval as always, but prints nothing (`known-hosts lookup --ssh-confirms`), so ssh asks
// its own question, which the session's askpass answers from the store
// (SSHFirstUseConfirmation): yes only for a key the trust core now trusts for that very
// name. ssh then writes that key into the file and learns the others the server proves.
public import HostStore
public import KeyFormats

public enum SSHHostKeyRotation {
    /// The entries ssh is given for host:port, or nil when the rules say not to learn.
    public static func baseline(_ store: KnownHostsStore, host: String, port: Int) throws -> [KnownHostRow]? {
        guard case .learn(let rows) = try store.rotationStart(HostLookupName(host: host, port: port)) else { return nil }
        return rows
    }

    /// Whether a first use of host:port may learn (no entry matches the name, rotation is
    /// not turned off): the hop's file starts empty and ssh asks (SSHFirstUseConfirmation).
    public static func learnsOnFirstUse(_ store: KnownHostsStore, host: String, port: Int) throws -> Bool {
        try store.rotationStart(HostLookupName(host: host, port: port)) == .notLearning(.notTrustedForTheName)
    }

    /// Whether a session run with `arguments` (what follows HOST on hostbook's command line,
    /// given to ssh after the configuration, so it wins) may learn at all. An ssh option
    /// naming StrictHostKeyChecking could let ssh itself add a first-use key to the file
    /// (`accept-new`, `no`: sshconnect.c add_host_to_hostfile), which the store must never
    /// take for a rotation; UserKnownHostsFile or UpdateHostKeys would take the file away
    /// from ssh. Any such word (in any spelling, even inside a remote command) turns learning
    /// off for the session: a rotation is then left for the next login.
    public static func allowed(sshArguments arguments: [String]) -> Bool {
        let words = ["stricthostkeychecking", "userknownhostsfile", "updatehostkeys", "globalknownhostsfile", "knownhostscommand"]
        return !arguments.contains { argument in
            let lower = argument.lowercased()
            return words.contains { lower.contains($0) }
        }
    }

    /// What one hop learned.
    public struct Learned: Sendable {
        public let alias: String
        public let lookup: HostLookupName
        public let outcome: HostKeyRotation.Outcome

        public init(alias: String, lookup: HostLookupName, outcome: HostKeyRotation.Outcome) {
            self.alias = alias
            self.lookup = lookup
            self.outcome = outcome
        }
    }

    /// Takes ssh's edits of `hop`'s file (`fileText`, read after ssh ended) into the store of
    /// `database`, the caller's database for writing, asked only when there is something to
    /// read or take (a session's workspace opens it then). `firstUse`: the hop's file started
    /// empty (`learnsOnFirstUse`).
    public static func learn(database: () throws -> HostDatabase, hop: SSHHop, fileText: String, firstUse: Bool = false) throws -> Learned? {
        let lookup = HostLookupName(host: hop.host.hostname, port: hop.host.port)
        let proven = HostKeyRotation.provenKeys(fileText, lookup: lookup)
        var opened: KnownHostsStore?
        let baseline: [KnownHostRow]
        if let rows = hop.rotation {
            baseline = rows
        } else if firstUse {
            // ssh wrote a key only if the user approved it (then the store trusts it): the
            // baseline is what the store trusts for the name now, all of it in ssh's file
            // (a first use retires nothing); else nothing is taken.
            guard !proven.isEmpty else { return nil }
            let store = KnownHostsStore(database: try database())
            guard case .learn(let rows) = try store.rotationStart(lookup) else { return nil }
            guard rows.allSatisfy({ row in proven.contains { $0.blob == row.keyBlob } }) else {
                return Learned(alias: hop.alias, lookup: lookup, outcome: .notLearned(.changedMeanwhile))
            }
            baseline = rows
            opened = store
        } else {
            return nil
        }
        if Set(proven.map(\.blob)) == Set(baseline.map(\.keyBlob)) {
            return Learned(alias: hop.alias, lookup: lookup, outcome: .unchanged)
        }
        let store = try opened ?? KnownHostsStore(database: try database())
        let outcome = try store.learnRotation(lookup, baseline: baseline, proven: proven) {
            RandomBytes.generate(HashedHostName.saltLength)
        }
        return Learned(alias: hop.alias, lookup: lookup, outcome: outcome)
    }
}
