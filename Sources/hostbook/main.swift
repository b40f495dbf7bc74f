// hostbook — entry point. Parses argv, runs one command, maps every error to one line on
// stderr and the documented exit code (docs/command-line.md, "Exit codes").
#if canImport(Glibc)
import Glibc
#endif
import SecureMemory
import System
import Vault

// Before anything can hold a secret: no core dumps, not dumpable (SecureMemory/ProcessProtection).
ProcessProtection.disableCoreDumps()
signal(SIGPIPE, SIG_IGN)
// The session bus, while this is the only thread (setenv: VaultClient.pickSessionBusAtStartup).
VaultClient.pickSessionBusAtStartup()
#if DEBUG
// The fault campaign's hook (System/FaultStep.swift): debug builds only, read once here.
FaultStep.armFromEnvironment()
#endif
exit(Hostbook.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current()))
