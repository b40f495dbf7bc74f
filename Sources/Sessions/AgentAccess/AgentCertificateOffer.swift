// Which certificate an agent offers beside a key (both agents, through
// AgentAccessPolicy.agentPolicy): the user certificate attached to the key
// (KeyCertificates), as an identity of its own after the plain key (the order ssh-agent
// lists a key and the certificate `ssh-add` adds with it), under the key's destination
// rule; only while it is within its validity window. One outside it is not offered, and
// the caller is told (the standing agent logs it).
#if canImport(Glibc)
import Glibc
#endif
public import Agent
public import HostStore
public import KeyFormats

public enum AgentCertificateOffer {
    /// What is offered for `key` whose plain identity is `plain`: the plain identity, then
    /// its user certificate when valid at `now` (seconds since the epoch); `notValid` is a
    /// user certificate left out for its validity window.
    public static func identities(_ plain: AgentIdentity, of key: StoredKey, now: UInt64)
        -> (identities: [AgentIdentity], notValid: Certificate?) {
        guard let certificate = key.certificate, certificate.role == .user,
              let certified = plain.certified(by: certificate) else { return ([plain], nil) }
        guard certificate.isValid(at: now) else { return ([plain], certificate) }
        return ([plain, certified], nil)
    }

    /// Now, in seconds since the epoch.
    public static func now() -> UInt64 { UInt64(max(0, time(nil))) }

    /// How the agent log names a certificate: its key id and serial.
    public static func logName(_ certificate: Certificate) -> String {
        "key id \"\(certificate.keyID)\", serial \(certificate.serial)"
    }

    /// The agent log's decision word for a certificate left out for its validity window.
    public static let notValidDecision = "certificate-not-valid"

    /// The agent log's reason for it.
    public static func notValidReason(_ certificate: Certificate, now: UInt64) -> String {
        let when = now < certificate.validAfter ? "not valid yet" : "expired"
        return "the certificate (\(logName(certificate))) is \(when): valid \(certificate.validityText); it was not offered"
    }
}
