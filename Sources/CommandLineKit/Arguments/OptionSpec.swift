// The declaration of one option, by a name the program spells once (its OptionNaming
// type, so a misspelled option fails the build). Help, the man page and the completion
// scripts show it; ArgumentParser reads it.

/// A program's option names: an enum whose raw values are the long spellings.
public protocol OptionNaming: RawRepresentable, Hashable, Sendable where RawValue == String {}

public struct OptionSpec<Name: OptionNaming>: Sendable {
    /// Long name without dashes, e.g. "port".
    public let name: String
    /// Placeholder for the value (e.g. "N"); nil for a boolean flag.
    public let valueName: String?
    public let repeatable: Bool
    public let help: String
    /// A one-letter spelling, `-l USER` or `-lUSER` as well as `--user USER` (for a command
    /// whose options mirror another program's, such as ssh's `-l`); nil for most options.
    public let short: Character?
    /// A value that may not be empty: `--name ""` is refused as soon as it is read.
    public let nonEmpty: Bool

    public static func flag(_ name: Name, _ help: String) -> OptionSpec {
        OptionSpec(name: name.rawValue, valueName: nil, repeatable: false, help: help, short: nil, nonEmpty: false)
    }

    public static func value(_ name: Name, _ valueName: String, _ help: String, repeatable: Bool = false,
                             short: Character? = nil, nonEmpty: Bool = false) -> OptionSpec {
        OptionSpec(name: name.rawValue, valueName: valueName, repeatable: repeatable, help: help, short: short, nonEmpty: nonEmpty)
    }

    /// How help and the man page name it: `--name`, or `-s, --name` with a short spelling.
    public var spelled: String { (short.map { "-\($0), " } ?? "") + "--" + name }
}
