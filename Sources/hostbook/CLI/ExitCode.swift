// Exit codes: a contract with scripts and tests (docs/command-line.md, "Exit codes").

enum ExitCode: Int32, Sendable {
    case ok = 0
    /// I/O, vault unavailable or locked, corrupt input, ...
    case failure = 1
    /// Unknown command or flag, missing or malformed argument.
    case usage = 2
    /// A prompt was required but there is no terminal, or --no-input was given.
    case inputNeeded = 3
    /// No host, key, snippet or entry by that name.
    case notFound = 4
    /// Validation failed (snippet rules, port, duplicate name, ...).
    case rejected = 5
    case wrongPassphrase = 6
    /// `known-hosts check` / `approve` outcomes.
    case hostKeyUnknown = 10
    case hostKeyChanged = 11
    case hostKeyRevoked = 12
}
