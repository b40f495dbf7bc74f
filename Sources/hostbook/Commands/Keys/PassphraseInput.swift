// Where a passphrase comes from: --passphrase-stdin, --passphrase-file F, or a no-echo
// prompt on the terminal. Secrets never come from argv.
import CommandLineKit
import SecureMemory
import Workflows

enum PassphraseInput {
    static let options: [OptionSpec] = [
        .flag(.passphraseStdin, "Read the passphrase from standard input (one trailing newline is removed)"),
        .value(.passphraseFile, "FILE", "Read the passphrase from FILE (one trailing newline is removed)"),
    ]
    static let alternative = "--passphrase-stdin or --passphrase-file"

    /// True when the passphrase is given on stdin or in a file (so no prompt, no retry).
    static func isGiven(_ inv: Invocation) -> Bool {
        inv.args.flag(.passphraseStdin) || inv.args.value(.passphraseFile) != nil
    }

    /// The passphrase from stdin or the file, or nil when neither flag was given.
    static func given(_ inv: Invocation) throws -> SecretBytes? {
        try inv.args.exclusive(.passphraseStdin, .passphraseFile)
        if inv.args.flag(.passphraseStdin) { return try Terminal.readSecretFromStdin(what: "the passphrase") }
        if let file = inv.args.value(.passphraseFile) { return try Terminal.readSecretFile(file, what: "passphrase") }
        return nil
    }

    /// Asks on the terminal (exit 3 naming the flags when there is none).
    static func prompt(_ inv: Invocation, _ text: TerminalText) throws -> SecretBytes {
        try inv.requirePrompt(for: "a passphrase", alternative: alternative)
        return try inv.promptSecret(text, alternative: alternative)
    }
}
