// Shell quoting for commands hostbook offers for pasting (doctor's fix lines, hints). Shell
// text that is run rather than read has its own single-quoting, without the escaping below:
// `agent start`'s export lines (AgentCommands.shellQuoted), doctor's `ssh -G` run
// (InstalledSSHConfigCheck.sshG) and the completion scripts. Here a word that is not plainly
// safe is single-quoted, with each `'` written as `'\''`, so whatever a database value or a
// file holds it stays one word. Control characters are escaped first (PrintableText.quoted), so
// the line cannot rewrite the terminal it is shown on.
import KeyFormats

enum ShellQuote {
    static func quote(_ word: String) -> String {
        let text = PrintableText.quoted(word)
        let safe = !text.isEmpty && text.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: "/")
                || c == UInt8(ascii: ":") || c == UInt8(ascii: "@") || c == UInt8(ascii: "=") || c == UInt8(ascii: ",") || c == UInt8(ascii: "+")
        }
        if safe { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
