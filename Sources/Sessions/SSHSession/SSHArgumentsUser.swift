// The user ssh takes from the arguments `hostbook ssh` passes on after HOST (`hostbook ssh
// devbox -l root`), so that hostbook plans for the user ssh will log in as: the session
// configuration's User, and the stored password only for the saved user.
//
// ssh reads options after the destination too (ssh.c, main: after the destination it starts
// getopt again on the arguments that follow, unless `--` ended the options), with the
// getopt of openbsd-compat, which does not reorder arguments: the options end at `--` or at
// the first argument that is not an option (the remote command). The first user given wins
// (`-l` and `-o User=` set it only while it is unset); hostbook's session configuration
// names the user in the configuration file, which any command-line user overrides.
public enum SSHArgumentsUser {
    /// ssh's options without a value and with one, as its getopt string lists them.
    static let flags = Set("1246ACGKMNTVXYZafgknqstvxy")
    static let takesValue = Set("BDEFIJLOPQRSWbceilmopw")

    /// The user set by `-l USER`, `-lUSER`, `-o User=USER` or `-oUser USER` (keyword in any
    /// case) in `arguments`, the first that does; nil when none does before the options end.
    public static func user(in arguments: [String]) -> String? {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            // `--` ends the options; `-` alone and a word without `-` are the command.
            guard argument.hasPrefix("-"), argument != "-", argument != "--" else { return nil }
            var letters = Substring(argument.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                if flags.contains(letter) { continue }
                // Unknown: ssh prints its usage and exits; nothing to plan for.
                guard takesValue.contains(letter) else { return nil }
                let value: String
                if !letters.isEmpty {
                    value = String(letters)
                } else {
                    i += 1
                    guard i < arguments.count else { return nil }
                    value = arguments[i]
                }
                if letter == "l" { return value }
                if letter == "o", let user = userOption(value) { return user }
                break
            }
            i += 1
        }
        return nil
    }

    /// The value of a `-o` line whose keyword is `User`: the keyword ends at whitespace or
    /// `=` (one `=`, with whitespace around it; readconf.c `strdelim`), the value is one
    /// word, in double quotes or not. nil for another keyword, or a value ssh refuses.
    static func userOption(_ line: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let end = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "=" }),
              trimmed[..<end].lowercased() == "user" else { return nil }
        var rest = trimmed[end...].drop { $0 == " " || $0 == "\t" }
        if rest.first == "=" { rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" } }
        while let last = rest.last, last == " " || last == "\t" { rest = rest.dropLast() }
        if rest.count >= 2, rest.first == "\"", rest.last == "\"" { rest = rest.dropFirst().dropLast() }
        guard !rest.isEmpty, !rest.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return nil }
        return String(rest)
    }
}
