// hostbook — entry point. Parses argv, runs one command, maps every error to one line on
// stderr and the documented exit code (DESIGN.md, "Exit codes").
#if canImport(Glibc)
import Glibc
#endif

signal(SIGPIPE, SIG_IGN)
exit(Hostbook.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current()))
