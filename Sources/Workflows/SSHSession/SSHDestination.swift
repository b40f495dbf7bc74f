// Which saved host `hostbook ssh` connects to, and as whom: the saved host's name and the
// user to log in as instead of the saved one, if any, read as ssh reads its destination.
import HostStore
import Sessions

public enum SSHDestination {
    /// `given`: the HOST word (`NAME` or `USER@NAME`); `user`: `-l USER` (`--user`) before
    /// it; `sshArguments`: the words after it. The user is `-l USER`, else the part of
    /// `USER@NAME` before its last `@` (a saved name has no `@`), as ssh reads its
    /// destination (ssh.c, main: `-l` first, then strrchr(host, '@')). A user among ssh's
    /// options after HOST (`-l USER`, `-o User=USER`: SSHArgumentsUser) wins over both: ssh
    /// gets those on its command line, and hostbook's own user only in the session
    /// configuration, which the command line overrides. A user that is not a valid login
    /// name is HostStore's refusal (HostValidation.user).
    public static func resolve(_ given: String, user: String?, sshArguments: [String]) throws -> (name: String, user: String?) {
        var name = given
        var user = user
        if let at = name.lastIndex(of: "@") {
            let before = String(name[..<at])
            name = String(name[name.index(after: at)...])
            if user == nil { user = before }
        }
        if let fromArguments = SSHArgumentsUser.user(in: sshArguments) { user = fromArguments }
        if let user { try HostValidation.user(user) }
        return (name, user)
    }
}
