// Whether `hostbook -Y sign` starts the standing agent when none answers: git's boolean
// `hostbook.startAgent` (set by `hostbook git setup --start-agent`), read as the signing git
// sees it (`git config --type=bool --get` in git's working folder: the repository's, then
// the global and system files). Read only when no agent answers, so signing with a running
// agent never spawns git. Without the setting, signing fails with the command to run.
import System

public enum GitAgentAutostart {
    /// git's configuration key.
    public static let key = "hostbook.startAgent"

    /// True when git's configuration (as git sees it with `environment`) says
    /// `hostbook.startAgent = true`. No git, no setting,
    /// or a value git does not read as a boolean: false (the one-line error then says what
    /// to run).
    public static func isRequested(environment: [String: String]) -> Bool {
        guard let git = ExecutablePath.find("git", searchPath: environment["PATH"]),
              let r = try? CapturedProcess.run(git, ["git", "config", "--type=bool", "--get", key],
                                               options: Spawn.Options(environment: Spawn.Options.environment(environment)),
                                               limit: 1 << 12, timeoutMilliseconds: 5000),
              r.status.exitCode == 0 else { return false }
        return String(decoding: r.stdout, as: UTF8.self) == "true\n"
    }
}
