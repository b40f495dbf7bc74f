// `known-hosts approve`'s work: trust a new key, or replace a changed one only on an
// explicit, separate decision (the user typing the new fingerprint, or replace with the
// expected fingerprint). The store decides again inside its write transaction; when the
// host's entries changed since the question was asked, the user is asked again about the
// new state, and when nobody can be asked the refusal stands with nothing written.
import HostStore
import KeyFormats

public enum HostKeyApproval {
    public struct Options: Sendable {
        /// Approve an unknown key without asking.
        public var yes = false
        /// Approve only a key with this fingerprint.
        public var fingerprint: String?
        /// Replace a changed key (with `fingerprint` naming the new key).
        public var replace = false
        /// The source recorded with the decision.
        public var source = "manual"

        public init(yes: Bool = false, fingerprint: String? = nil, replace: Bool = false, source: String = "manual") {
            self.yes = yes
            self.fingerprint = fingerprint
            self.replace = replace
            self.source = source
        }
    }

    public enum Outcome: Sendable {
        case alreadyTrusted, approved
        /// The entries the new key replaced.
        case replaced([KnownHostRow])
    }

    /// Refuses a `fingerprint` that is not `key`'s, before anything is read or written.
    public static func checkFingerprint(_ options: Options, key: PublicKey) throws {
        if let f = options.fingerprint, f != key.sha256Fingerprint {
            throw KnownHostsRefusal.fingerprintMismatch(given: f, key: key)
        }
    }

    /// The approval; `askingAgain` is told of a store that changed under the question
    /// before the user is asked again.
    public static func run(_ presented: PresentedHostKey, for lookup: HostLookupName, in store: KnownHostsStore,
                           options: Options, asking: Asking, questions: any HostKeyQuestions,
                           askingAgain: (HostStoreError) -> Void) throws -> Outcome {
        while true {
            do {
                return try decideOnce(presented, for: lookup, in: store, options: options, asking: asking, questions: questions)
            } catch let e as HostStoreError where e.kind == .changedMeanwhile && asking == .possible {
                askingAgain(e)
            }
        }
    }

    static func decideOnce(_ presented: PresentedHostKey, for lookup: HostLookupName, in store: KnownHostsStore,
                           options: Options, asking: Asking, questions: any HostKeyQuestions) throws -> Outcome {
        let key = presented.plainKey
        let check = try store.check(lookup, presented: presented)
        switch check.decision.status {
        case .trusted:
            return .alreadyTrusted
        case .revoked:
            throw KnownHostsRefusal.revokedNotApprovable(lookup, key: key)
        case .unknown:
            if options.yes || options.fingerprint != nil {
                return try store.approve(lookup, key: key, source: options.source) ? .approved : .alreadyTrusted
            }
            guard asking == .possible else { throw KnownHostsRefusal.approvalNeedsConfirmation(lookup, key: key, asking) }
            let others = try store.otherNames(trusting: key.sha256Fingerprint, excluding: lookup)
            if try questions.approve(lookup, key: key, otherNames: others) {
                return try store.approve(lookup, key: key, source: options.source) ? .approved : .alreadyTrusted
            }
            try store.record(.rejected, lookup: lookup, key: key, source: options.source)
            throw KnownHostsRefusal.notApproved(lookup)
        case .changed:
            let shown = check.entries.map(\.id)
            if options.replace, options.fingerprint == key.sha256Fingerprint {
                return .replaced(try store.replace(lookup, with: key, expected: shown, source: options.source))
            }
            if asking == .possible {
                if try questions.replace(lookup, key: key, stored: check.entries) {
                    return .replaced(try store.replace(lookup, with: key, expected: shown, source: options.source))
                }
                try store.record(.rejected, lookup: lookup, key: key, source: options.source)
                throw KnownHostsRefusal.changedKeyKept(lookup)
            }
            try store.record(.rejected, lookup: lookup, key: key, source: options.source)
            throw KnownHostsRefusal.changedKeyNotReplaced(lookup, stored: check.entries, key: key)
        }
    }
}
