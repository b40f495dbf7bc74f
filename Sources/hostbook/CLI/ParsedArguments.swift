// The options and positionals of one invocation after parsing, with typed accessors
// whose errors are usage errors (exit 2) naming the flag.

struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []
    /// For a command that passes arguments through: every word after its first positional,
    /// exactly as given (see `CommandSpec.passesArgumentsAfterFirstPositional`).
    var trailing: [String] = []
    /// The command line for messages, e.g. "hostbook add".
    var commandLine: String = "hostbook"

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `--name`, or nil.
    func value(_ name: String) -> String? { values[name]?.last }

    /// All values given for a repeatable `--name`, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    /// An integer option within `range`; a malformed or out-of-range value is a usage error.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw CLIError.usage("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// Fails with a usage error when more than one of `names` was given.
    func exclusive(_ names: String...) throws {
        let given = names.filter { has($0) }
        if given.count > 1 {
            throw CLIError.usage("\(given.map { "--" + $0 }.joined(separator: " and ")) cannot be used together",
                                 hint: "Run '\(commandLine) --help' for usage.")
        }
    }
}
