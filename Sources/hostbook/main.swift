// hostbook — entry point. Parses argv, runs one command, maps every error to one line on
// stderr and the documented exit code (docs/command-line.md, "Exit codes").
#if canImport(Glibc)
import Glibc
#endif
import SecureMemory
import System
import Vault

// Before anything can hold a secret: no core dumps, not dumpable (SecureMemory/ProcessProtection).
// git's signing program (`hostbook -Y ...`, GitSSHKeygenProgram) holds no secret: the agent
// signs, and a private key file goes to ssh-keygen. It stays dumpable so that the agent can
// read its /proc/PID/exe and name it in approvals, grants and the log (an unidentified
// requester gets no grant).
if CommandLine.arguments.dropFirst().first != "-Y" {
    ProcessProtection.disableCoreDumps()
}
signal(SIGPIPE, SIG_IGN)
// The session bus, while this is the only thread (setenv: VaultClient.pickSessionBusAtStartup).
VaultClient.pickSessionBusAtStartup()
// A vault call waiting on a keyring's dialog tells the user (VaultWaitLine).
VaultWaitLine.install()
#if DEBUG
// The fault campaign's hook (System/FaultStep.swift): debug builds only, read once here.
FaultStep.armFromEnvironment()
#endif
exit(Hostbook.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current()))
