// Which host `hostbook ssh` connects to: the HOST given, or, with none, the one chosen in
// the host picker (Terminal/HostPickerPrompt) — after which everything runs exactly as
// `hostbook ssh NAME` does. The picker needs a terminal on stdin and stdout and no
// --no-input; otherwise a missing HOST is a usage error, as it is for any other command.
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import Sessions

enum SSHHostChoice {
    /// The saved host's name and the user to log in as instead of the saved one, if any:
    /// `-l USER` (`--user`), else the part of `USER@NAME` before its last `@` (a saved
    /// name has no `@`), as ssh reads its destination (ssh.c, main: `-l` first, then
    /// strrchr(host, '@')). A user among ssh's options after HOST (`-l USER`, `-o User=USER`:
    /// SSHArgumentsUser) wins over both: ssh gets those on its command line, and hostbook's
    /// own user only in the session configuration, which the command line overrides.
    static func destination(_ inv: Invocation) throws -> (name: String, user: String?) {
        var name = try self.name(inv)
        var user = inv.args.value(.user)
        if let at = name.lastIndex(of: "@") {
            let given = String(name[..<at])
            name = String(name[name.index(after: at)...])
            if user == nil { user = given }
        }
        if let given = SSHArgumentsUser.user(in: inv.args.trailing) { user = given }
        if let user { try HostStoreErrorPresentation.mapping { try HostValidation.user(user) } }
        return (name, user)
    }

    static func name(_ inv: Invocation) throws -> String {
        if let name = inv.args.positional(0) { return name }
        let why: String? = inv.globals.noInput ? "--no-input turns the host picker off"
            : isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 ? "the host picker needs a terminal on stdin and stdout" : nil
        if let why {
            throw CLIError.usage("missing HOST for 'hostbook ssh': \(why)",
                                 hint: "Give the host's name: 'hostbook ssh HOST' ('hostbook list' shows them).")
        }
        let hosts = try HostStoreAccess.openForReading(inv)?.hosts(tags: [], source: nil) ?? []
        guard !hosts.isEmpty else {
            throw CLIError.notFound("no saved hosts to pick from; add one with 'hostbook add NAME --hostname H'")
        }
        let entries = hosts.map { HostPicker.Entry(name: $0.name, user: $0.user, hostname: $0.hostname, port: $0.port, tags: $0.tags, aliases: $0.aliases) }
        return try HostPickerPrompt.choose(from: entries, color: inv.useColor)
    }
}
