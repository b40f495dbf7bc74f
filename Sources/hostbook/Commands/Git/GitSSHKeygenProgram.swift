// `hostbook -Y OPERATION ...`: hostbook as git's gpg.ssh.program (`hostbook git setup` sets
// it). git runs the program with ssh-keygen's arguments and nothing else (no shell, no
// subcommand word), so the first argument `-Y` is the command. `-Y sign` with a public key
// file signs through hostbook's standing agent at its own socket, then $SSH_AUTH_SOCK
// (GitSignatureProgram, GitSigningProgram): it works in a shell without SSH_AUTH_SOCK; with git's
// hostbook.startAgent set, an agent that is not running is started first. Everything else (`-Y
// verify`, `-Y find-principals`, `-Y check-novalidate`, a private key file) runs the real
// ssh-keygen with the same arguments, standard input, output and error, and ends with its
// status. Not listed in the help: plumbing for git (docs/command-line.md, "git").
import Sessions
import Workflows

enum GitSSHKeygenProgram {
    /// The first argument that makes hostbook speak ssh-keygen's `-Y` interface.
    static let word = "-Y"

    static func main(_ argv: [String], environment: [String: String]) -> Int32 {
        do {
            if let request = try GitSignatureProgram.signRequest(argv),
               let key = try GitSignatureProgram.publicKey(in: request.keyFile) {
                let sockets = GitSigningProgram.sockets(environment)
                try GitSigningProgram.startAgentIfAsked(sockets: sockets, keyBlob: key.key.blob, environment: environment)
                try GitSignatureProgram.sign(request, key: key, sockets: sockets)
                return ExitCode.ok.rawValue
            }
            return try GitSigningProgram.sshKeygen(argv, environment: environment)
        } catch let error as UserFacingError {
            Hostbook.report(message: error.message, hint: error.hint)
            return error.exitCode.rawValue
        } catch {
            Hostbook.report(message: "unexpected error: \(error)", hint: nil)
            return ExitCode.failure.rawValue
        }
    }
}
