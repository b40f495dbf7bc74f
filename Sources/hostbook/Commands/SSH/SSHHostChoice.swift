// Which host `hostbook ssh` connects to: the HOST given, or, with none, the one chosen in
// the host picker (Terminal/HostPickerPrompt) — after which everything runs exactly as
// `hostbook ssh NAME` does. The picker needs a terminal on stdin and stdout and no
// --no-input; otherwise a missing HOST is a usage error, as it is for any other command.
import CommandLineKit
import System
import HostStore
import Sessions
import Workflows

enum SSHHostChoice {
    /// The saved host's name and the login user for this connection, if not the saved one
    /// (Workflows' SSHDestination: `-l USER`, `USER@NAME`, a user among ssh's options).
    static func destination(_ inv: Invocation) throws -> (name: String, user: String?) {
        let given = try name(inv)
        return try HostStoreErrorPresentation.mapping {
            try SSHDestination.resolve(given, user: inv.args.value(.user), sshArguments: inv.args.trailing)
        }
    }

    static func name(_ inv: Invocation) throws -> String {
        if let name = inv.args.positional(0) { return name }
        let why: String? = inv.globals.noInput ? "--no-input turns the host picker off"
            : !FileDescriptor.standardInput.isTerminal || !FileDescriptor.standardOutput.isTerminal ? "the host picker needs a terminal on stdin and stdout" : nil
        if let why {
            throw CLIError.usage("missing HOST for 'hostbook ssh': \(why)",
                                 hint: "Give the host's name: 'hostbook ssh HOST' ('hostbook list' shows them).")
        }
        let entries = try HostPicker.entries(in: inv.workspace)
        guard !entries.isEmpty else {
            throw CLIError.notFound("no saved hosts to pick from; add one with 'hostbook add NAME --hostname H'")
        }
        return try HostPickerPrompt.choose(from: entries, color: inv.useColor)
    }
}
