// A key's user certificate that has expired or expires within 7 days: the agents stop
// offering it at its end, and servers that trust only the CA then refuse the login. One
// warning per key, with the command that attaches the renewed certificate.
import HostStore
import KeyFormats
import Sessions

struct CertificateExpiryCheck: DoctorCheck {
    /// How far ahead an end counts as soon.
    static let warningSeconds: UInt64 = 7 * 86_400

    func run(_ c: DoctorContext) -> DoctorResult {
        var r = DoctorResult()
        guard let db = c.database, let keys = try? KeyStore(database: db).list() else { return r }
        let now = AgentCertificateOffer.now()
        for key in keys {
            guard let certificate = key.certificate, certificate.role == .user, let end = certificate.validToText else { continue }
            let fix = "Get a renewed certificate from your CA, then run: hostbook keys cert add \(ShellQuote.quote(key.name)) FILE"
            let what = "the certificate of key '\(key.name)' (key id \"\(certificate.keyID)\", serial \(certificate.serial))"
            if certificate.validBefore <= now {
                r.findings.append(DoctorFinding(check: "keys.certificate", severity: .warning,
                                                message: "\(what) expired at \(end): the agents no longer offer it", fix: fix))
            } else if certificate.validBefore - now <= Self.warningSeconds {
                r.findings.append(DoctorFinding(check: "keys.certificate", severity: .warning,
                                                message: "\(what) expires at \(end), within 7 days", fix: fix))
            }
        }
        return r
    }
}
