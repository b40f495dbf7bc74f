// Host-key rotation as OpenSSH 9.2 learns it with `UpdateHostKeys yes` and a known_hosts
// file (docs/openssh-behaviour.md, "UpdateHostKeys"; docs/known-hosts.md, "Rotation"): the
// two decisions hostbook makes around ssh's own. ssh does the protocol — the server's
// `hostkeys-00@openssh.com` announcement, the `hostkeys-prove-00@openssh.com` proof of each
// new key, the removal of keys no longer offered — on a known_hosts file hostbook writes for
// the connection; these rules decide when ssh is given that file (`start`) and what of ssh's
// edits to it the store takes (`fold`). One owner: KnownHostsStore+Rotation reads and writes
// through them, the tests put every case to them in-process.
import KeyFormats

public enum HostKeyRotation {
    /// The `source` of every entry and event a rotation writes (TrustOrigin.rotation).
    public static let source = "rotation"

    /// Why ssh is not given the file for a connection (it then runs with
    /// `UpdateHostKeys no`, as before).
    public enum NotLearning: Sendable, Equatable {
        /// The user turned rotation off for this name and port (`known-hosts rotation --off`).
        case turnedOff
        /// No plain key is trusted for exactly this name and port: an unknown host (a first
        /// connection), or one trusted only through the bare name (sshconnect.c's
        /// "checking without port identifier", which ssh never updates).
        case notTrustedForTheName
        /// An `@revoked` or `@cert-authority` entry matches the name (clientloop.c
        /// hostkeys_find: "CA/revocation marker").
        case marker(KnownHostsLine.Marker)
        /// A wildcard, negation or pattern-list entry matches the name (hostspec_is_complex).
        case pattern
        /// A host certificate is stored as a plain entry for the name.
        case certificate
        /// The trust is held by another origin (a team bundle, a Tailscale import), which
        /// restates it itself (TrustAuthority.rotationRefusal).
        case anotherOrigin(TrustOrigin)
    }

    /// Before the connection: the entries ssh is given (each in its own form: a hashed name
    /// stays hashed, a port stays `[host]:port`), or why not.
    public enum Start: Sendable, Equatable {
        case learn([KnownHostRow])
        case notLearning(NotLearning)
    }

    /// `matched`: every entry whose host field matches the exact name and port ssh looks up
    /// (KnownHostsStore.entries(matching:): no bare-name fallback).
    public static func start(matched: [KnownHostRow], turnedOff: Bool) -> Start {
        if turnedOff { return .notLearning(.turnedOff) }
        if let marked = matched.first(where: { $0.marker != .none }) { return .notLearning(.marker(marked.marker)) }
        if matched.contains(where: { $0.kind == .patterns }) { return .notLearning(.pattern) }
        if matched.contains(where: { $0.record.isCertificate }) { return .notLearning(.certificate) }
        if matched.isEmpty { return .notLearning(.notTrustedForTheName) }
        if let refusal = TrustAuthority.rotationRefusal(entries: matched) {
            guard case .trustedByAnotherOrigin(let origin, _) = refusal.kind else { return .notLearning(.anotherOrigin(.user)) }
            return .notLearning(.anotherOrigin(origin))
        }
        return .learn(matched)
    }

    /// Why ssh's edits are not taken.
    public enum NotFolding: Sendable, Equatable {
        /// A key the server holds (new, kept or retired) is trusted under another name or
        /// port (clientloop.c: "host key found matching a different name/address", "exist
        /// under other names"): as OpenSSH, nothing is changed.
        case trustedUnderAnotherName(fingerprint: String)
        /// The store's entries for the name changed while ssh ran (another command, or the
        /// rules no longer allow it): the store wins.
        case changedMeanwhile
        /// ssh's file holds no key for the name at all (ssh never writes that: a server
        /// always keeps the key it authenticated with).
        case nothingLeft
    }

    /// After ssh ended: what the store takes from ssh's file.
    public enum Outcome: Sendable, Equatable {
        /// ssh did not change the keys (no rotation, ssh found nothing to prove, or the
        /// server could not prove a key it announced).
        case unchanged
        /// Keys the server proved, to trust; entries of keys it no longer offers, to retire.
        case learned(added: [PublicKey], retired: [KnownHostRow])
        case notLearned(NotFolding)
    }

    /// `baseline`: the entries ssh was given. `now`: `start` over the store as it is now.
    /// `proven`: the plain keys ssh's file holds for the name after ssh ended (ssh adds only
    /// keys the server proved in this session, and removes those it no longer offers).
    /// `otherNames`: the keys (by blob) trusted by an unmarked entry for another name or port.
    public static func fold(baseline: [KnownHostRow], now: Start, proven: [PublicKey], otherNames: Set<[UInt8]>) -> Outcome {
        let before = Set(baseline.map(\.keyBlob)), after = Set(proven.map(\.blob))
        if before == after { return .unchanged }
        guard case .learn(let current) = now, current.map(\.id) == baseline.map(\.id) else { return .notLearned(.changedMeanwhile) }
        if proven.isEmpty { return .notLearned(.nothingLeft) }
        var seen: Set<[UInt8]> = []
        let added = proven.filter { !before.contains($0.blob) && seen.insert($0.blob).inserted }
        let retired = baseline.filter { !after.contains($0.keyBlob) }
        for blob in proven.map(\.blob) + retired.map(\.keyBlob) where otherNames.contains(blob) {
            let fingerprint = (try? PublicKey(blob: blob).sha256Fingerprint) ?? ""
            return .notLearned(.trustedUnderAnotherName(fingerprint: fingerprint))
        }
        return .learned(added: added, retired: retired)
    }

    /// A learned key keeps the form of the name's entries: hashed when every one is hashed.
    public static func hashesNewEntries(_ baseline: [KnownHostRow]) -> Bool {
        !baseline.isEmpty && baseline.allSatisfy { $0.kind == .hashed }
    }

    /// The known_hosts file ssh is given: the entries `start` chose, one line each.
    public static func knownHostsText(_ rows: [KnownHostRow]) -> String {
        rows.map { $0.line() + "\n" }.joined()
    }

    /// The plain keys of `text` (ssh's file after the connection) whose line matches `lookup`
    /// as ssh matches it: a hashed name by its HMAC, a plain one by name. Marker lines and
    /// lines that do not parse are left out (ssh writes neither for a rotation).
    public static func provenKeys(_ text: String, lookup: HostLookupName) -> [PublicKey] {
        var keys: [PublicKey] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let entry = try? KnownHostsEntry.parse(String(line)), entry.marker == .none, entry.certificate == nil,
                  entry.line.matches(lookup: lookup.text) else { continue }
            if !keys.contains(where: { $0.blob == entry.key.blob }) { keys.append(entry.key) }
        }
        return keys
    }
}
