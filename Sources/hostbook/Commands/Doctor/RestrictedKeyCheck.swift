// A key restricted to SSHSIG namespaces (`keys edit --namespace`, an older `git setup`) that
// saved hosts still log in with: both agents refuse it for ssh logins, so connecting to
// those hosts fails. One finding per key, with the command that lifts the restriction.
import HostStore

struct RestrictedKeyCheck: DoctorCheck {
    func run(_ c: DoctorContext) -> DoctorResult {
        var r = DoctorResult()
        guard let db = c.database, let keys = try? db.restrictedKeysInUse() else { return r }
        for key in keys {
            r.findings.append(DoctorFinding(
                check: "keys.namespace", severity: .error,
                message: "key '\(key.key)' signs only in namespace \(key.namespaces.joined(separator: ", ")), but saved hosts log in with it (ssh to them is refused): \(key.hosts.joined(separator: ", "))",
                fix: "Run: hostbook keys edit \(ShellQuote.quote(key.key)) --no-namespace (for git signing, make a dedicated key: hostbook git setup --new-key \(GitSetup.offeredKeyName))"))
        }
        return r
    }
}
