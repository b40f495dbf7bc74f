// ssh's own question about a first-use host key, answered through the session's askpass
// (docs/known-hosts.md, "Rotation"). A hop that learns on its first use
// (SSHHostKeyRotation.learnsOnFirstUse) runs ssh with `StrictHostKeyChecking ask`: hostbook's
// lookup has already asked the user and recorded the answer, and prints nothing, so ssh asks
// (sshconnect.c check_host_key → confirm, through SSH_ASKPASS). The answer is read from the
// store, never decided here: yes only when the trust core (KnownHostsStore.check, i.e.
// HostKeyPolicy) trusts a plain key with the fingerprint ssh shows for exactly the name ssh
// shows, and that name is one of the session's first-use hops. ssh then treats the key as
// accepted by the user, which keeps UpdateHostKeys on for the session, as with OpenSSH's
// `ask`.
public import KeyFormats
public import HostStore

/// Unchecked Sendable: the askpass server asks it on its own thread, reading through the
/// session's database handle, a serialized (SQLITE_OPEN_FULLMUTEX) connection it only reads.
public struct SSHFirstUseConfirmation: @unchecked Sendable {
    /// The session's database (the handle its plan was read from), read afresh for each
    /// question: the lookup's approval is committed before ssh asks.
    public let database: HostDatabase
    /// The names of the session's first-use hops.
    public let lookups: [HostLookupName]

    public init(database: HostDatabase, lookups: [HostLookupName]) {
        self.database = database
        self.lookups = lookups
    }

    /// What ssh's question names: the known_hosts name (`host` or `[host]:port`) and the
    /// fingerprint it shows.
    public struct Question: Sendable, Equatable {
        public let name: String
        public let fingerprint: String
    }

    /// ssh's first-use question, or nil when `prompt` is another prompt (sshconnect.c:
    /// "The authenticity of host 'NAME (IP)' can't be established", "TYPE key fingerprint is
    /// FP.", "Are you sure you want to continue connecting (yes/no/[fingerprint])? ").
    public static func question(_ prompt: String) -> Question? {
        let opening = "The authenticity of host '", closing = "Are you sure you want to continue connecting (yes/no/[fingerprint])? "
        guard prompt.hasPrefix(opening), prompt.hasSuffix(closing) else { return nil }
        // The name has no space (ssh writes none to known_hosts); the IP follows in parentheses.
        let words = prompt.dropFirst(opening.count).split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard words.count == 2, words[1].hasPrefix("(") else { return nil }
        let name = String(words[0])
        // One line says "TYPE key fingerprint is FP.".
        var found: String?
        for line in prompt.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 5, parts[1] == "key", parts[2] == "fingerprint", parts[3] == "is", parts[4].hasSuffix(".") else { continue }
            guard found == nil else { return nil }
            found = String(parts[4].dropLast())
        }
        guard let fingerprint = found, !name.isEmpty, fingerprint.hasPrefix("SHA256:") else { return nil }
        return Question(name: name, fingerprint: fingerprint)
    }

    /// ssh's answer to `prompt`: "yes" or "no" for a first-use question, nil for any other prompt.
    public func answer(_ prompt: String) -> String? {
        guard let question = Self.question(prompt) else { return nil }
        return trusts(question) ? "yes" : "no"
    }

    /// True when the store trusts, for exactly the question's name, a plain key with its fingerprint.
    func trusts(_ question: Question) -> Bool {
        guard let lookup = lookups.first(where: { $0.text.lowercased() == question.name.lowercased() }) else { return false }
        let store = KnownHostsStore(database: database)
        guard let rows = try? store.entries(matching: lookup) else { return false }
        for row in rows where row.marker == .none && row.fingerprint == question.fingerprint {
            guard let key = try? PublicKey(blob: row.keyBlob),
                  let check = try? store.check(lookup, presented: .plain(key)) else { continue }
            if check.decision.status == .trusted && !check.decision.viaCertificateAuthority { return true }
        }
        return false
    }
}
