// `hostbook keys export NAME [--passphrase-stdin | --passphrase-file F | --no-passphrase]
//  [--output FILE] [--rounds N]`: the private key as an openssh-key-v1 file, encrypted with
// aes256-ctr + bcrypt (OpenSSH's own default), to stdout or a new 0600 file.
import CommandLineKit
import System
import Workflows
import HostStore
import KeyFormats
import SecureMemory

enum KeysExport {
    static let spec = CommandSpec(
        ["keys", "export"],
        summary: "Write a private key as an OpenSSH key file, encrypted with a passphrase",
        usage: "NAME [--passphrase-stdin | --passphrase-file FILE | --no-passphrase] [--output FILE] [--rounds N]",
        discussion: """
        The file is openssh-key-v1, encrypted with aes256-ctr and bcrypt (\(KeyExport.defaultRounds) rounds unless
        --rounds), exactly as ssh-keygen writes it. The new passphrase is asked twice on the
        terminal, or read with --passphrase-stdin / --passphrase-file. An empty passphrase is
        refused: to export the key unencrypted say so with --no-passphrase. --output writes a
        new file with mode 0600 (an existing file is never overwritten); otherwise the key goes
        to standard output. An unencrypted key (--no-passphrase) is never written to a terminal:
        give --output FILE or redirect standard output (exit 5 otherwise).
        """,
        positionals: [.required("NAME", "The key", completes: SavedNames.keys)],
        options: PassphraseInput.options + [
            .flag(.noPassphrase, "Export without encryption (cipher none)"),
            .value(.output, "FILE", "Write to a new file FILE (mode 0600) instead of standard output"),
            .value(.rounds, "N", "bcrypt rounds (default \(KeyExport.defaultRounds))"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        try inv.args.exclusive(.passphraseStdin, .passphraseFile, .noPassphrase)
        let rounds = try inv.args.int(.rounds, in: 1...OpenSSHPrivateKey.maxBcryptRounds) ?? KeyExport.defaultRounds
        if inv.args.flag(.noPassphrase) && inv.args.value(.rounds) != nil {
            throw CLIError.usage("--rounds applies only to an encrypted export, not with --no-passphrase")
        }
        if inv.args.flag(.noPassphrase) && inv.args.value(.output) == nil && inv.stdoutIsTerminal {
            // On screen the key would sit in the terminal's scrollback (and any session log).
            throw CLIError.rejected("refusing to write an unencrypted private key to the terminal",
                                    hint: "Use --output FILE, or redirect standard output to a file.")
        }
        let export = try KeyExport(name: inv.args.positional(0)!, output: inv.args.value(.output), workspace: inv.workspace)
        let stored = export.key
        let passphrase = try newPassphrase(inv)
        let file = try export.file(passphrase: passphrase, rounds: rounds)
        if let output = inv.args.value(.output) {
            try KeyFiles.writeNew(output, file)
            inv.note("Wrote the private key of '\(stored.name)' to '\(output)'\(passphrase == nil ? " (unencrypted)" : "").")
        } else {
            guard KeyFiles.writeAll(FileDescriptor.standardOutput.rawValue, file) else {
                throw CLIError.failure("cannot write to standard output: \(Errno.current.description)")
            }
        }
    }

    /// The export passphrase: nil only with --no-passphrase; an empty one is refused.
    private static func newPassphrase(_ inv: Invocation) throws -> SecretBytes? {
        if inv.args.flag(.noPassphrase) { return nil }
        let passphrase: SecretBytes
        if let given = try PassphraseInput.given(inv) {
            passphrase = given
        } else {
            try inv.requirePrompt(for: "a passphrase for the exported key",
                                  alternative: "--passphrase-stdin, --passphrase-file or --no-passphrase")
            passphrase = try PassphraseInput.prompt(inv, "New passphrase for the exported key: ")
            if !passphrase.isEmpty {
                let again = try PassphraseInput.prompt(inv, "Repeat the passphrase: ")
                guard again.constantTimeEquals(passphrase) else {
                    throw CLIError.rejected("the two passphrases do not match; nothing was exported")
                }
            }
        }
        guard !passphrase.isEmpty else {
            throw CLIError.rejected("the passphrase is empty; the key would be exported unencrypted",
                                    hint: "Use --no-passphrase to export it without encryption.")
        }
        return passphrase
    }
}
