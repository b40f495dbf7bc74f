// Every command hostbook has, in the order `hostbook --help` lists them.
// Each noun keeps its commands in its own file beside this one.

enum CommandTable {
    static let all: [CommandSpec] =
        HostCommands.all
        + ImportTailscaleCommand.all
        + ImportSSHConfigCommand.all
        + KeysCommands.all
        + CACommands.all
        + GitCommands.all
        + KnownHostsCommands.all
        + BundleCommands.all
        + SnippetsCommands.all
        + VaultCommands.all
        + SSHCommand.all
        + AgentCommands.all
        + SSHConfigCommand.all
        + DoctorCommand.all
        + ShellIntegrationCommands.all
}
