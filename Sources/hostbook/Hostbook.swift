// Runs one invocation of hostbook and returns its exit status.
import CommandLineKit
import System
import Sessions

enum Hostbook {
    static let version = "0.1.0"

    static func main(_ argv: [String], environment: [String: String]) -> Int32 {
        // ssh runs hostbook as its SSH_ASKPASS program (`hostbook PROMPT`) during `hostbook ssh`.
        if argv.count == 1, environment[SSHAskpass.sessionVariable] != nil {
            return SSHAskpassTerminal.main(prompt: argv[0], environment: environment)
        }
        // git runs hostbook as its gpg.ssh.program (`hostbook -Y sign ...`, GitSSHKeygenProgram).
        if argv.first == GitSSHKeygenProgram.word { return GitSSHKeygenProgram.main(argv, environment: environment) }
        // Shell completion asks on every Tab: answered before any parsing (CompleteFastPath).
        if argv.first == CompleteFastPath.word { return CompleteFastPath.run(argv, environment: environment) }
        let parser = CommandLineParser(commands: CommandTable.all)
        do {
            switch try parser.parse(argv) {
            case .version:
                Output.write("hostbook \(version)\n", to: .standardOutput)
                return ExitCode.ok.rawValue
            case .help(let text):
                // Help is hostbook's own text: the command table's summaries and discussions.
                Output.write(.raw(text), to: .standardOutput)
                return ExitCode.ok.rawValue
            case .run(let spec, let args, let globals):
                let invocation = Invocation(args: args, globals: globals, environment: environment)
                KeptKnownHostsSync.before(spec, invocation)
                do {
                    try spec.run(invocation)
                } catch let failed as FailedAfterChanges {
                    afterChanges(spec, invocation)
                    throw failed.underlying
                }
                afterChanges(spec, invocation)
                return ExitCode.ok.rawValue
            }
        } catch let status as ExitStatus {
            return status.code.rawValue
        } catch let child as ChildExitStatus {
            return child.status
        } catch let interrupted as TerminalInterrupted {
            return 128 + interrupted.signal
        } catch let error as UserFacingError {
            report(message: error.message, hint: error.hint, details: error.details)
            return error.exitCode.rawValue
        } catch {
            report(message: "unexpected error: \(error)", hint: nil)
            return ExitCode.failure.rawValue
        }
    }

    /// What follows a command that changed hosts or keys (its spec says so): the installed
    /// ssh configuration and the allowed signers file are rewritten. After any command, the
    /// known_hosts files plain ssh reads are made equal to the store (KeptKnownHostsSync).
    static func afterChanges(_ spec: CommandSpec, _ inv: Invocation) {
        InstalledConfigRefresh.after(spec, inv)
        AllowedSignersRefresh.after(spec, inv)
        KeptKnownHostsSync.after(spec, inv)
    }

    /// An error's message and hint are one line each and may quote anything (a path, a
    /// name, a server's answer): both are escaped here, where they are printed.
    static func report(message: String, hint: String?, details: [String] = []) {
        var text: TerminalText = "hostbook: \(message)\n"
        for line in details { text += "  \(line)\n" }
        if let hint { text += "\(hint)\n" }
        Output.write(text, to: .standardError)
    }
}
