// hostbook as ssh's SSH_ASKPASS program during `hostbook ssh` (`hostbook PROMPT`): the
// session's server answers what it owns (SSHAskpass: a stored password, ssh's first-use
// question). In a session where ssh sends every prompt here because a hop learns on its
// first use (SSHAskpass.terminalVariable), any other prompt is asked on the terminal, as
// ssh would have asked it: a password or passphrase with echo off, a confirmation as yes/no,
// a notification shown. ssh's words are outside text: escaped.
import CommandLineKit
import SecureMemory
import Sessions
import System

enum SSHAskpassTerminal {
    static func main(prompt: String, environment: [String: String]) -> Int32 {
        if let answer = SSHAskpass.ask(prompt: prompt, environment: environment) { return write(answer) }
        guard environment[SSHAskpass.terminalVariable] == "1" else { return 1 }
        guard let tty = ControllingTerminal.open() else { return 1 }
        tty.duplicate(onto: .standardInput)
        tty.duplicate(onto: .standardError)
        tty.close()
        do {
            // readpass.c: "confirm" asks for permission (exit 0 = yes), "none" only tells.
            switch environment["SSH_ASKPASS_PROMPT"] {
            case "none":
                Output.write("\(prompt)\n", to: .standardError)
                return 0
            case "confirm":
                let answer = try Terminal.readLine(prompt: "\(prompt) (yes/no) ")
                return answer.lowercased() == "yes" ? 0 : 1
            default:
                return write(try Terminal.readSecret(prompt: "\(prompt)"))
            }
        } catch let interrupted as TerminalInterrupted {
            return 128 + interrupted.signal
        } catch {
            return 1
        }
    }

    /// The answer and the newline ssh cuts at, on standard output (ssh's pipe).
    private static func write(_ answer: SecretBytes) -> Int32 {
        let stdout = FileDescriptor.standardOutput
        let ok = answer.withUnsafeBytes { (try? stdout.writeAll($0)) != nil } && (try? stdout.writeAll([UInt8(ascii: "\n")])) != nil
        return ok ? 0 : 1
    }
}
