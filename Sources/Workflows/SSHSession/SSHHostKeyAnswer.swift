// What `hostbook known-hosts lookup PHASE NAME HOST PORT TYPE KEY ALIAS`, the
// KnownHostsCommand of `hostbook ssh`, answers ssh (sshconnect.c load_hostkeys_command;
// docs/openssh-behaviour.md, "KnownHostsCommand"): known_hosts lines for ssh to act on,
// from one decision of the trust core (Sessions' `SSHHostKeyDecision.decide`):
//   ORDER     the stored keys for the name, so ssh asks for an algorithm it can verify
//   HOSTNAME  trusted: the presented key; revoked: an @revoked line; changed: the stored
//             keys (ssh refuses with its own warning, nothing is replaced); unknown: to be
//             asked about by the caller; a host certificate a trusted CA signed that is not
//             acceptable (expired, not yet valid, not for this name): refused
//             (SSHSessionRefusal.hostCertificateRefused), never the plain key's question.
// The command's arguments, the approval prompt, the hints and the printing are the
// executable's (SSHHostKeyLookup).
public import HostStore
public import KeyFormats
import Sessions

public enum SSHHostKeyAnswer: Sendable {
    /// The stored keys' lines (ORDER, or no key given; none without a database).
    case known(lines: [String])
    /// Trusted: the presented key's line, or the CA's lines for a certificate.
    case trusted(lines: [String])
    /// Revoked: the @revoked line, the plain key, and the revocation list's source when one
    /// revoked it.
    case revoked(line: String, key: PublicKey, revocationList: String?)
    /// Changed: the stored plain keys (and their lines); ssh refuses the presented key.
    case changed(lines: [String], stored: [KnownHostRow], presented: PublicKey)
    /// Not known (nor revoked): the plain key, for the caller to ask about.
    case unknown(PublicKey)

    /// The answer for `name` (the name ssh looks up) at `lookup`, the presented key given as
    /// ssh's TYPE and base64 words (`NONE`: no key, the stored keys' lines). `database` nil:
    /// there is none yet, nothing is trusted.
    public static func answer(_ database: HostDatabase?, phase: String, name: String, lookup: HostLookupName,
                              keyType: String, keyBase64: String) throws -> SSHHostKeyAnswer {
        if phase == "ORDER" || keyType == "NONE" {
            guard let database else { return .known(lines: []) }
            return .known(lines: lines(try KnownHostsStore(database: database).knownKeyTypes(lookup).entries, name: name))
        }
        let presented: PresentedHostKey
        do { presented = try PresentedHostKey.parse("\(keyType) \(keyBase64)") } catch {
            throw SSHSessionRefusal.unreadableHostKey(type: keyType)
        }
        guard let database else { return .unknown(presented.plainKey) }
        let check = try SSHHostKeyDecision.decide(KnownHostsStore(database: database), host: lookup.host, port: lookup.port, key: presented)
        let key = presented.plainKey
        switch check.decision.status {
        case .trusted:
            return .trusted(lines: check.decision.viaCertificateAuthority ? lines(check.entries, name: name) : [line(name: name, key: key)])
        case .revoked:
            return .revoked(line: "@revoked " + line(name: name, key: key), key: key, revocationList: check.revocationList)
        case .changed where refusesCertificate(presented, check), .unknown where refusesCertificate(presented, check):
            // A certificate a CA trusted for this name signed, but not acceptable: ssh would
            // fall back to its plain key and ask about it; refused here with the reason, and
            // the failing command makes ssh stop.
            throw SSHSessionRefusal.hostCertificateRefused(lookup: lookup, presented: presented, problem: check.decision.certificateProblem)
        case .changed:
            let stored = check.matched.filter { $0.marker == .none }
            return .changed(lines: lines(stored, name: name), stored: stored, presented: key)
        case .unknown:
            return .unknown(key)
        }
    }

    /// True when `presented` is a certificate signed by a CA an `@cert-authority` entry
    /// trusts for this name, the trust core did not accept it, and its plain key is not
    /// trusted (nor revoked) either.
    public static func refusesCertificate(_ presented: PresentedHostKey, _ check: KnownHostsStore.Check) -> Bool {
        guard case .certificate(let cert) = presented, check.decision.certificateProblem != nil,
              check.decision.status == .unknown || check.decision.status == .changed else { return false }
        return check.matched.contains { $0.marker == .certAuthority && $0.keyBlob == cert.signatureKey.blob }
    }

    /// The known_hosts line of `key` for `name`, exactly as ssh gave the name.
    public static func line(name: String, key: PublicKey) -> String {
        "\(name) \(key.type) \(key.base64)"
    }

    /// The known_hosts lines of stored rows for `name`, each with its marker.
    public static func lines(_ rows: [KnownHostRow], name: String) -> [String] {
        rows.map { row in
            let marker = row.marker == .none ? "" : "@\(row.marker.rawValue) "
            return "\(marker)\(name) \(row.keyType) \(Base64.encode(row.keyBlob))"
        }
    }
}
