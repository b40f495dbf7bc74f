// `hostbook keys import PATH [--name NAME] [--passphrase-stdin | --passphrase-file F]`
import CommandLineKit
import Credentials
import HostStore
import KeyFormats
import SecureMemory
import Workflows

enum KeysImport {
    static let spec = CommandSpec(
        ["keys", "import"], changesHostsOrKeys: true,
        summary: "Import a private key file (OpenSSH, PEM, PKCS#8, PuTTY) into the vault",
        usage: "PATH [--name NAME] [--passphrase-stdin | --passphrase-file FILE]",
        discussion: """
        The private key is kept in the Secret Service vault, decrypted (the vault protects it);
        the database keeps only its public half. NAME defaults to the file's name without
        .pem, .ppk or .key. An encrypted file asks for its passphrase on the terminal (up to
        3 tries); without a terminal use --passphrase-stdin or --passphrase-file.
        PATH '-' reads the key from standard input (then --name is needed). A key file
        without a comment of its own (PEM, PKCS#8) takes the one of PATH.pub beside it, when
        that file holds the same key. A certificate beside PATH (PATH-cert.pub, as
        ssh-keygen -s writes it) is attached to the key when it certifies it (see
        'hostbook keys cert add'); one for another key is a warning, not attached.
        """,
        positionals: [.required("PATH", "The private key file, or '-' for standard input", completes: .files)],
        options: [.value(.name, "NAME", "Name to store the key under")] + PassphraseInput.options,
        run: run)

    static func run(_ inv: Invocation) throws {
        let path = inv.args.positional(0)!
        try inv.args.exclusive(.passphraseStdin, .passphraseFile)
        if path == "-" && inv.args.flag(.passphraseStdin) {
            throw CLIError.usage("the key and the passphrase cannot both come from standard input",
                                 hint: "Use --passphrase-file for the passphrase.")
        }
        guard let name = inv.args.value(.name) ?? (path == "-" ? nil : KeyFiles.defaultName(for: path)) else {
            throw CLIError.usage("--name is needed when the key comes from standard input")
        }
        try KeyName.validate(name)

        let imported = try KeyImport.run(path: path, name: name, workspace: inv.workspace, asker: Asker(inv: inv))
        let stored = imported.key
        if let (file, error) = imported.certificateNotAttached {
            switch error {
            case let refusal as KeyCertificateRefusal: inv.warn("not attached: \(refusal.cliError(file: file, key: stored.name, fingerprint: stored.fingerprint).message)")
            case let refusal as KeysRefusal: inv.warn("not attached: \(refusal.message)")
            default: inv.warn("not attached: cannot save the certificate in '\(file)': \(error)")
            }
        }
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            if imported.restored {
                inv.print("Restored the private key of key '\(stored.name)' in the vault: \(try KeyPresentation.summary(stored))")
                inv.note("The key was stored already but its vault item was missing; its name and the hosts that use it are unchanged.")
            } else {
                inv.print("Imported key '\(stored.name)': \(try KeyPresentation.summary(stored))")
            }
            if let certificate = imported.certificate {
                inv.print("Attached its certificate: \(KeyCertificatePresentation.summary(certificate))")
                KeyCertificatePresentation.warnings(certificate, inv)
            }
            if imported.needsSecurityKey {
                inv.note("This key lives on a FIDO security key: signing needs the authenticator.")
            }
        }
    }

    /// The passphrase from --passphrase-stdin or --passphrase-file, else asked on the
    /// terminal (up to KeyImport.maxPromptAttempts times).
    private struct Asker: KeyImportAsker {
        let inv: Invocation

        func givenPassphrase() throws -> SecretBytes? { try PassphraseInput.given(inv) }

        func askPassphrase(for source: KeysRefusal.Source, attempt: Int) throws -> SecretBytes {
            let shown = KeyPresentation.shown(source)
            if attempt == 1 {
                try inv.requirePrompt(for: "the passphrase of \(shown)", alternative: PassphraseInput.alternative)
            } else {
                inv.note("Incorrect passphrase, try again.")
            }
            return try PassphraseInput.prompt(inv, "Passphrase for \(shown): ")
        }

        /// Each round costs about 3 ms here; OpenSSH writes 16 or 24.
        func slowDecryption(of source: KeysRefusal.Source, rounds: Int) {
            inv.note("hostbook: \(KeyPresentation.shown(source)) uses \(rounds) bcrypt rounds; decrypting it will take a while (about \(max(1, rounds * 3 / 1000)) s; Ctrl-C stops it).")
        }

        /// A ticking "deriving the key" line on a terminal.
        func decrypting(rounds: Int, _ body: () throws -> ImportedPrivateKey) throws -> ImportedPrivateKey {
            let progress = inv.progress("Deriving the key (\(Progress.grouped(rounds)) bcrypt rounds)")
            progress.startTicking()
            defer { progress.finish() }
            return try body()
        }
    }
}
