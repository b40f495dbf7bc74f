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
public import HostStore
public import KeyFormats

public enum SSHHostKeyRotation {
    /// The entries ssh is given for host:port, or nil when the rules say not to learn.
    public static func baseline(_ store: KnownHostsStore, host: String, port: Int) throws -> [KnownHostRow]? {
        guard case .learn(let rows) = try store.rotationStart(HostLookupName(host: host, port: port)) else { return nil }
        return rows
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

    /// Takes ssh's edits of `hop`'s file (`fileText`, read after ssh ended) into the store
    /// at `databasePath`.
    public static func learn(databasePath: String, hop: SSHHop, fileText: String) throws -> Learned? {
        guard let baseline = hop.rotation else { return nil }
        let lookup = HostLookupName(host: hop.host.hostname, port: hop.host.port)
        let proven = HostKeyRotation.provenKeys(fileText, lookup: lookup)
        if Set(proven.map(\.blob)) == Set(baseline.map(\.keyBlob)) {
            return Learned(alias: hop.alias, lookup: lookup, outcome: .unchanged)
        }
        let store = KnownHostsStore(database: try HostDatabase.open(path: databasePath))
        let outcome = try store.learnRotation(lookup, baseline: baseline, proven: proven) {
            RandomBytes.generate(HashedHostName.saltLength)
        }
        return Learned(alias: hop.alias, lookup: lookup, outcome: outcome)
    }
}
