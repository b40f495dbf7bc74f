// The local account behind a user id: its login name, from the password database
// (getpwuid(3)). The one place hostbook asks it; each caller says what stands in for an
// account the database does not know.
#if canImport(Glibc)
import Glibc
#endif

public enum UserAccount {
    /// The login name of `uid`, or nil when the password database has no such account.
    public static func name(uid: uid_t) -> String? {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
