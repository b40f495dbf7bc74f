// The options of `hostbook keys edit` and what they change (KeyChanges): each option is
// declared and read here, one place per option, so the command itself only applies them.
import HostStore
import Workflows
import Sessions

enum KeyEditOptions {
    static let usage = "NAME [--rename NEW] [--comment TEXT] [--confirm | --no-confirm] [--grant DURATION | --no-grant]"

    static let options: [OptionSpec] = [
        .value(.rename, "NEW", "A new name"),
        .value(.comment, "TEXT", "A new comment ('' clears it)"),
        .flag(.confirm, "Ask before every signature the agents make with this key"),
        .flag(.noConfirm, "Sign without asking (the default)"),
        .value(.grant, "DURATION", "One approval covers the same key, destination, program and namespace this long: 30s, 10m, 1h (at most 24h)"),
        .flag(.noGrant, "Every signature asks (the default)"),
    ]

    /// The longest grant: a day.
    static let maxGrantSeconds = 24 * 3600

    /// The changes the options ask for; usage errors (exit 2) for conflicting or malformed
    /// ones, exit 5 for an unusable new name.
    static func changes(_ a: ParsedArguments) throws -> KeyChanges {
        try a.exclusive(.confirm, .noConfirm)
        try a.exclusive(.grant, .noGrant)
        var c = KeyChanges()
        if let name = a.value(.rename) {
            try KeyName.validate(name, option: "--rename")
            c.rename = name
        }
        if let comment = a.value(.comment) {
            guard !comment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
                throw CLIError.rejected("the comment contains a control character", hint: "Give --comment one line of printable text.")
            }
            c.comment = comment
        }
        if a.flag(.confirm) { c.confirm = true } else if a.flag(.noConfirm) { c.confirm = false }
        if let text = a.value(.grant) { c.grantSeconds = try grantSeconds(text) } else if a.flag(.noGrant) { c.grantSeconds = 0 }
        return c
    }

    /// `30s`, `10m`, `1h` (a number and one unit; a bare number is seconds), 1 s to 24 h.
    static func grantSeconds(_ text: String) throws -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        var digits = Substring(text)
        var unit = 1
        if let last = text.last, let u = units[last] {
            unit = u
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 6,
              let n = Int(digits), n > 0, n * unit <= maxGrantSeconds else {
            throw CLIError.usage("--grant must be a duration from 1s to 24h such as 30s, 10m or 1h, not '\(text)'",
                                 hint: "Use --no-grant to make every signature ask.")
        }
        return n * unit
    }

    /// A grant as the user writes it: `1h`, `10m`, `90s`.
    static func duration(_ seconds: Int) -> String { ApprovalRequest.durationText(seconds) }
}
