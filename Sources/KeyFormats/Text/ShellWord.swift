// The one rule for writing a value as one POSIX shell word (sh, bash, zsh): a word of
// plainly safe characters stays bare, any other is single-quoted with each `'` written as
// `'\''`, so whatever the value holds (spaces, `$`, backquotes, globs, line breaks) the shell
// reads it back unchanged as one word. Used for text a shell runs (export lines, the
// known_hosts script, doctor's hints, the completion scripts); text shown for pasting first
// goes through PrintableText.quoted (hostbook's ShellQuote), so it cannot move the terminal.
// fish reads quotes differently (a backslash escapes inside '…') and has its own quoting in
// FishCompletion.

public enum ShellWord {
    /// `value` as one shell word.
    public static func quoted(_ value: String) -> String {
        if isPlain(value) { return value }
        return "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// Letters, digits and `-_./:@+%,`, not empty: no shell gives any of them a meaning in
    /// an argument or an assignment's value (`=` is left out: zsh expands a word that starts
    /// with it; `~` too, which every shell expands at the start).
    static func isPlain(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: "/")
                || c == UInt8(ascii: ":") || c == UInt8(ascii: "@") || c == UInt8(ascii: "+") || c == UInt8(ascii: "%")
                || c == UInt8(ascii: ",")
        }
    }
}
