// Outside text in the library's messages, escaped as the executable prints it: the project's
// one rule, `PrintableText.quoted` (KeyFormats), so a message reads the same whichever side
// words it.
import KeyFormats

extension String {
    var escapedForTerminal: String { PrintableText.quoted(self) }
}
