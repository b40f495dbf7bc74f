// The Sessions library's names, visible in every file of the program. Files that another
// change is rewriting at the same time (SSHSession.swift, AgentCommands.swift: the move of
// every system call into its own target) name SSHPlan, SSHSessionConfig and StandingAgent
// without importing Sessions; once they import it themselves, this file goes.
@_exported import Sessions
