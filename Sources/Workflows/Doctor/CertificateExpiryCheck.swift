// A key's user certificate that has expired or expires within 7 days: the agents stop
// offering it at its end, and servers that trust only the CA then refuse the login. One
// finding per key.
import HostStore
import KeyFormats
import Sessions

public struct CertificateExpiryCheck: DoctorCheck {
    /// How far ahead an end counts as soon.
    public static let warningSeconds: UInt64 = 7 * 86_400

    public init() {}

    public func run(_ c: DoctorContext) -> [DoctorObservation] {
        guard let db = c.database, let keys = try? KeyStore(database: db).list() else { return [] }
        let now = AgentCertificateOffer.now()
        return keys.compactMap { key in
            guard let certificate = key.certificate, certificate.role == .user, let end = certificate.validToText,
                  certificate.validBefore <= now || certificate.validBefore - now <= Self.warningSeconds else { return nil }
            return .certificateEnds(key: key.name, keyID: certificate.keyID, serial: certificate.serial, end: end,
                                    expired: certificate.validBefore <= now)
        }
    }
}
