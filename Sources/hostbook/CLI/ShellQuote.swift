// Shell quoting for commands hostbook offers for pasting (doctor's fix lines, hints): the
// word as ShellWord writes it (KeyFormats/Text/ShellWord.swift, the one quoting rule), after
// its control characters are escaped (PrintableText.quoted), so the line cannot rewrite the
// terminal it is shown on. Text that is run rather than read calls ShellWord.quoted itself.
import KeyFormats

enum ShellQuote {
    static func quote(_ word: String) -> String {
        ShellWord.quoted(PrintableText.quoted(word))
    }
}
