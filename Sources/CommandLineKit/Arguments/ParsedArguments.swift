// The options and positionals of one invocation after parsing, with typed accessors
// whose errors are ArgumentError values naming the option. Options are read by the
// program's OptionNaming type, never by a string, and only those the command declares
// (checked in debug builds).

public struct ParsedArguments<Name: OptionNaming>: Sendable {
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var positionals: [String] = []
    /// For a command that passes arguments through: every word after its first positional,
    /// exactly as given (see `CommandDeclaration.passesArgumentsAfterFirstPositional`).
    public var trailing: [String] = []
    /// The command's words, for messages.
    public var command: [String] = []
    /// The names of the options the command declares (its part of the command table); nil
    /// before a command is chosen.
    public var declared: Set<String>? = nil

    public init() {}

    public func flag(_ name: Name) -> Bool { flags.contains(checked(name)) }

    /// The last value given for `--name`, or nil.
    public func value(_ name: Name) -> String? { values[checked(name)]?.last }

    /// All values given for a repeatable `--name`, in order.
    public func values(_ name: Name) -> [String] { values[checked(name)] ?? [] }

    public func has(_ name: Name) -> Bool { flags.contains(checked(name)) || values[name.rawValue] != nil }

    /// A flag read by code that every command shares: false for a command that does not
    /// declare it, without the debug check.
    public func sharedFlag(_ name: Name) -> Bool { flags.contains(name.rawValue) }

    /// `name`'s spelling, after checking (in debug builds) that the command declares it: a
    /// read of an option the command does not have would always be absent.
    private func checked(_ name: Name) -> String {
        assert(declared?.contains(name.rawValue) ?? true, "\(command.joined(separator: " ")) reads --\(name.rawValue), which its command table entry does not declare")
        return name.rawValue
    }

    public func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    /// An integer option within `range`; a malformed or out-of-range value is an ArgumentError.
    public func int(_ name: Name, in range: ClosedRange<Int>) throws(ArgumentError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw .notAWholeNumber(option: name.rawValue, range: range, given: text)
        }
        return n
    }

    /// Fails when more than one of `names` was given.
    public func exclusive(_ names: Name...) throws(ArgumentError) {
        let given = names.filter { has($0) }
        if given.count > 1 { throw .conflicting(options: given.map(\.rawValue), command: command) }
    }
}
