// `known-hosts scan`'s work: the keys ssh-keyscan found (Keyscan), each decided on its own by
// OpenSSH's rules against what was stored before the scan, the user asked about each new or
// changed one, and the answers written. The program prints each result as it comes.
import HostStore
import KeyFormats

public enum HostKeyScan {
    /// What became of one scanned key.
    public enum Result: String, Sendable {
        case trusted, revoked, approved, rejected, replaced, changed
    }

    /// Decides every key in `keys` for `lookup` in `store`, asking `questions` about each new
    /// or changed one; `each` is told each key's result in order. Throws
    /// `KnownHostsRefusal.scanNeedsAnswer` (nothing written) when a key needs an answer and
    /// `asking` says nobody can give it.
    @discardableResult
    public static func decide(_ keys: [PublicKey], for lookup: HostLookupName, in store: KnownHostsStore,
                              asking: Asking, questions: any HostKeyQuestions,
                              each: (PublicKey, Result) throws -> Void) throws -> [Result] {
        guard !keys.isEmpty else { throw KnownHostsRefusal.noHostKeysFound(lookup) }
        // Every key is decided on its own, by OpenSSH's rules, against what was stored
        // before the scan (so approving the first key of a new host does not make its
        // other key types look changed). ssh-keyscan output is unauthenticated: a key no
        // entry holds, for a name that has entries, is CHANGED even when the same scan
        // also shows a trusted key (a man in the middle can replay the real one).
        let checks = try keys.map { try store.check(lookup, presented: .plain($0)) }
        func needsAnswer(_ check: KnownHostsStore.Check) -> Bool {
            check.decision.status == .unknown || check.decision.status == .changed
        }
        if asking != .possible, let first = zip(keys, checks).first(where: { needsAnswer($0.1) }) {
            throw KnownHostsRefusal.scanNeedsAnswer(lookup, key: first.0, asking)
        }
        var results: [Result] = []
        // Keys this scan wrote for the name: later keys of the same scan go beside them.
        var written: [PublicKey] = []
        var replaced = false
        for (key, check) in zip(keys, checks) {
            let result: Result
            switch check.decision.status {
            case .trusted:
                result = .trusted
            case .revoked:
                result = .revoked
            case .unknown:
                let others = try store.otherNames(trusting: key.sha256Fingerprint, excluding: lookup)
                if try questions.approve(lookup, key: key, otherNames: others) {
                    try store.approve(lookup, key: key, source: "tofu", alongside: written)
                    written.append(key)
                    result = .approved
                } else {
                    try store.record(.rejected, lookup: lookup, key: key, source: "tofu")
                    result = .rejected
                }
            case .changed:
                if try questions.replace(lookup, key: key, stored: check.entries) {
                    if replaced {
                        try store.approve(lookup, key: key, source: "tofu", alongside: written)
                    } else {
                        try store.replace(lookup, with: key, expected: check.entries.map(\.id), source: "tofu")
                        replaced = true
                    }
                    written.append(key)
                    result = .replaced
                } else {
                    try store.record(.rejected, lookup: lookup, key: key, source: "tofu")
                    result = .changed
                }
            }
            try each(key, result)
            results.append(result)
        }
        // A replacement removes every entry for the name (like ssh-keygen -R); the keys
        // of this scan that were trusted before stay trusted.
        if replaced {
            for (key, check) in zip(keys, checks) where check.decision.status == .trusted {
                try store.approve(lookup, key: key, source: "tofu", alongside: written)
                written.append(key)
            }
        }
        return results
    }
}
