// A key restricted to SSHSIG namespaces (`keys edit --namespace`, an older `git setup`) that
// saved hosts still log in with: both agents refuse it for ssh logins, so connecting to
// those hosts fails. One finding per key.
import HostStore

public struct RestrictedKeyCheck: DoctorCheck {
    public init() {}

    public func run(_ c: DoctorContext) -> [DoctorObservation] {
        guard let db = c.database, let keys = try? db.restrictedKeysInUse() else { return [] }
        return keys.map(DoctorObservation.restrictedKey)
    }
}
