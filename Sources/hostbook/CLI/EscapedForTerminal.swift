// The program's spelling of the one escaping rule for text it builds into messages.
import CommandLineKit
import KeyFormats

extension String {
    /// `PrintableText.quoted(self)`: the same rule, spelled where a message is built from
    /// outside text (a CLIError, a presentation's words, an agent's prompt). Printed text
    /// needs neither: TerminalText escapes what is interpolated into it. The libraries never
    /// escape: they keep outside text raw in their values and errors.
    var escapedForTerminal: String { PrintableText.quoted(self) }
}
