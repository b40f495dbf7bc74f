// The options and positionals of one invocation after parsing, with typed accessors
// whose errors are usage errors (exit 2) naming the flag. Options are read by OptionName,
// never by a string, and only those the command declares (checked in debug builds).

struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []
    /// For a command that passes arguments through: every word after its first positional,
    /// exactly as given (see `CommandSpec.passesArgumentsAfterFirstPositional`).
    var trailing: [String] = []
    /// The command line for messages, e.g. "hostbook add".
    var commandLine: String = "hostbook"
    /// The names of the options the command declares (its part of the command table); nil
    /// before a command is chosen.
    var declared: Set<String>? = nil

    func flag(_ name: OptionName) -> Bool { flags.contains(checked(name)) }

    /// The last value given for `--name`, or nil.
    func value(_ name: OptionName) -> String? { values[checked(name)]?.last }

    /// All values given for a repeatable `--name`, in order.
    func values(_ name: OptionName) -> [String] { values[checked(name)] ?? [] }

    func has(_ name: OptionName) -> Bool { flags.contains(checked(name)) || values[name.rawValue] != nil }

    /// A flag read by code that every command shares (Invocation's `--wide`, `--yes`; the
    /// refreshes after a change skip a `--dry-run`): false for a command that does not declare it.
    func sharedFlag(_ name: OptionName) -> Bool { flags.contains(name.rawValue) }

    /// `name`'s spelling, after checking (in debug builds) that the command declares it: a
    /// read of an option the command does not have would always be absent.
    private func checked(_ name: OptionName) -> String {
        assert(declared?.contains(name.rawValue) ?? true, "\(commandLine) reads --\(name.rawValue), which its command table entry does not declare")
        return name.rawValue
    }

    func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    /// An integer option within `range`; a malformed or out-of-range value is a usage error.
    func int(_ name: OptionName, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw CLIError.usage("--\(name.rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// Fails with a usage error when more than one of `names` was given.
    func exclusive(_ names: OptionName...) throws {
        let given = names.filter { has($0) }
        if given.count > 1 {
            throw CLIError.usage("\(given.map { "--" + $0.rawValue }.joined(separator: " and ")) cannot be used together",
                                 hint: "Run '\(commandLine) --help' for usage.")
        }
    }
}
