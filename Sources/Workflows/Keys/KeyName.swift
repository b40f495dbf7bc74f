// Rules for key names: what `--name` or a file's base name may be.

public enum KeyName {
    public static let maxLength = 64

    /// Throws `badKeyName` with the reason when `name` is not a usable key name (`option`
    /// is the option the user names it with).
    public static func validate(_ name: String, option: String = "--name") throws(KeysRefusal) {
        if let problem = problem(name) { throw KeysRefusal.badKeyName(name, problem, option: option) }
    }

    /// Why `name` cannot name a key, nil when it can.
    public static func problem(_ name: String) -> KeysRefusal.NameProblem? {
        if name.isEmpty { return .empty }
        if name.count > maxLength { return .tooLong }
        if name.first == " " || name.last == " " || name.hasPrefix("-") { return .spaceOrDash }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) { return .controlCharacter }
        return nil
    }
}
