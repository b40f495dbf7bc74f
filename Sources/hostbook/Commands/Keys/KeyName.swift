// Rules for key names: what `--name` or a file's base name may be.

enum KeyName {
    static let maxLength = 64

    /// Throws exit 5 with the reason when `name` is not a usable key name.
    static func validate(_ name: String, option: String = "--name") throws {
        let hint = "Choose a name with \(option): 1 to \(maxLength) characters, no spaces at either end, no control characters."
        guard !name.isEmpty else { throw CLIError.rejected("the key name is empty", hint: hint) }
        guard name.count <= maxLength else { throw CLIError.rejected("the key name is longer than \(maxLength) characters", hint: hint) }
        guard name.first != " ", name.last != " ", !name.hasPrefix("-") else {
            throw CLIError.rejected("the key name '\(name)' starts or ends with a space or starts with '-'", hint: hint)
        }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) else {
            throw CLIError.rejected("the key name contains a control character", hint: hint)
        }
    }
}
