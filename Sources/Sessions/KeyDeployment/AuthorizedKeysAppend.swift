// The remote command of `hostbook keys deploy`: what OpenSSH's contrib/ssh-copy-id does on
// the server (its installkeys_sh), written for hostbook. Run by the remote user's login
// shell, it starts `sh` (whatever that shell is), goes home, and with umask 077 creates
// `~/.ssh` (0700) and `~/.ssh/authorized_keys` (0600) when missing; a key already in the
// file (its `TYPE BASE64` as a whole word, options before it allowed) is left alone;
// otherwise a newline is added if the file does not end with one, then the key's line.
// Existing files keep their modes. The key line is part of the command, so nothing is read
// from stdin; every byte that is not plainly safe in a shell word is written as printf's
// `\ooo` octal escape.
public import KeyFormats

public enum AuthorizedKeysAppend {
    /// The command's exit status when it appended the key.
    public static let appended: Int32 = 0
    /// Its exit status when the key was already there.
    public static let alreadyPresent: Int32 = 100

    /// The command for ssh's command line (one word after `--`).
    public static func remoteCommand(_ key: PublicKey, comment: String) -> String {
        // `TYPE BASE64` holds only letters, digits, '-', '.', '@', '+', '/' and '=': safe
        // inside the double quotes below.
        let blob = key.line()
        let script = [
            "cd || exit 1",
            "umask 077",
            "mkdir -p .ssh || exit 1",
            "f=.ssh/authorized_keys",
            "if [ -f \"$f\" ] && grep -q -w -F -e \"\(blob)\" \"$f\"; then exit \(alreadyPresent); fi",
            "if [ -s \"$f\" ] && [ -n \"$(tail -c 1 \"$f\")\" ]; then echo >> \"$f\" || exit 1; fi",
            "printf \"\(printfFormat(key.line(comment: comment)))\\n\" >> \"$f\" || exit 1",
            "if type restorecon >/dev/null 2>&1; then restorecon -F .ssh \"$f\"; fi",
            "exit \(appended)",
        ].joined(separator: "; ")
        // The script has no single quote: the login shell passes it to sh unchanged.
        return "exec sh -c '\(script)'"
    }

    /// `text` as a printf format that prints it exactly: safe bytes as they are, every
    /// other byte (quotes, `$`, `%`, `\`, backquote, `!`, non-ASCII, ...) as `\ooo`.
    static func printfFormat(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            if isSafe(b) {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                let octal = String(b, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out
    }

    private static func isSafe(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return " ./+=@_:,-".utf8.contains(b)
        }
    }
}
