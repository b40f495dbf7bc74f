// The paths hostbook hands to the programs it starts (ssh, the agent): absolute, since
// they run in another working directory.
import System

enum SSHPaths {
    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        ExecutablePath.absolute(path)
    }

    /// This program's own absolute path (for KnownHostsCommand and SSH_ASKPASS).
    static func executable() throws -> String {
        do { return try ExecutablePath.ofThisProcess() } catch {
            throw CLIError.failure("cannot find hostbook's own path: \(error)")
        }
    }
}
