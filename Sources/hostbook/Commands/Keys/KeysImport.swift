// `hostbook keys import PATH [--name NAME] [--passphrase-stdin | --passphrase-file F]`
import Credentials
import HostStore
import KeyFormats
import SecureMemory

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

    static let maxPromptAttempts = 3

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

        let bytes = try KeyFiles.read(path)
        let shown = path == "-" ? "standard input" : "'\(path)'"
        guard PrivateKeyFile.detect(bytes) != nil else { throw notAKey(bytes, shown) }
        // The file's structure is read once; a damaged one is reported after the name check.
        let opened = Result { try PrivateKeyEnvelope.open(bytes) }

        let ctx = try KeysContext.open(inv)
        // Refuse a taken name (and, where the file shows its public key, a stored key)
        // before asking for a passphrase.
        _ = try ctx.credentials.admission(name: name, publicKey: try? opened.get().publicKey)

        let envelope: PrivateKeyEnvelope
        do { envelope = try opened.get() } catch let e as KeyFormatError { throw failure(e, shown) }
        let imported = try decode(envelope, shown: shown, inv)
        var key = imported.key
        // PEM and PKCS#8 have no comment: ssh-keygen keeps it in PATH.pub beside them.
        if key.comment.isEmpty, path != "-", let comment = CompanionPublicKey.comment(beside: path, for: key.publicKey) {
            key.comment = comment
        }
        let result = try ctx.credentials.store(key, name: name, format: imported.format.rawValue)
        var stored = result.key
        // ssh-keygen -s writes a key's certificate as PATH-cert.pub beside it.
        let certificate = path == "-" ? nil : attachCertificate(beside: path, to: stored, ctx, inv)
        if certificate != nil { stored = (try? ctx.store.find(uuid: stored.uuid)) ?? stored }
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            switch result {
            case .added:
                inv.print("Imported key '\(stored.name)': \(try KeyPresentation.summary(stored))")
            case .restored:
                inv.print("Restored the private key of key '\(stored.name)' in the vault: \(try KeyPresentation.summary(stored))")
                inv.note("The key was stored already but its vault item was missing; its name and the hosts that use it are unchanged.")
            }
            if let certificate {
                inv.print("Attached its certificate: \(KeyCertificatePresentation.summary(certificate))")
                KeyCertificatePresentation.warnings(certificate, inv)
            }
            if imported.key.needsSecurityKey {
                inv.note("This key lives on a FIDO security key: signing needs the authenticator.")
            }
        }
    }

    /// The certificate `PATH-cert.pub` holds, attached to `key` when it certifies that key
    /// (and verifies); anything else there is a warning, and the key stays imported.
    private static func attachCertificate(beside path: String, to key: StoredKey, _ ctx: KeysContext, _ inv: Invocation) -> Certificate? {
        guard let file = KeyCertificateFile.beside(path) else { return nil }
        do {
            let read = try KeyCertificateFile.read(file)
            try KeyCertificates(database: ctx.database).attach(read.certificate, comment: read.comment, to: key)
            return read.certificate
        } catch let refusal as KeyCertificateRefusal {
            let error = refusal.cliError(file: file, key: key)
            inv.warn("not attached: \(error.message)")
        } catch let error as CLIError {
            inv.warn("not attached: \(error.message)")
        } catch {
            inv.warn("not attached: cannot save the certificate in '\(file)': \(error)")
        }
        return nil
    }

    /// Parses the file, asking for the passphrase when it is encrypted. The first attempt
    /// has no passphrase: every parser checks the file's structure (and says what is wrong
    /// with it) before it reports that a passphrase is needed.
    private static func decode(_ envelope: PrivateKeyEnvelope, shown: String, _ inv: Invocation) throws -> ImportedPrivateKey {
        let rounds = envelope.bcryptRounds
        /// Decrypting: with many bcrypt rounds a ticking "deriving the key" line on a terminal.
        func parse(_ passphrase: SecretBytes) throws -> ImportedPrivateKey {
            guard let rounds, rounds >= progressRounds else { return try envelope.decrypt(passphrase: passphrase) }
            let progress = inv.progress("Deriving the key (\(Progress.grouped(rounds)) bcrypt rounds)")
            progress.startTicking()
            defer { progress.finish() }
            return try envelope.decrypt(passphrase: passphrase)
        }
        do {
            return try envelope.decrypt(passphrase: nil)
        } catch let e as KeyFormatError where e.kind == .passphraseRequired {
            // Encrypted: go on below. Any round count is read, as in OpenSSH; say when it
            // will take long (each round costs about 3 ms here; OpenSSH writes 16 or 24).
            if let rounds, rounds > 1000 {
                inv.note("hostbook: \(shown) uses \(rounds) bcrypt rounds; decrypting it will take a while (about \(max(1, rounds * 3 / 1000)) s; Ctrl-C stops it).")
            }
        } catch let e as KeyFormatError {
            throw failure(e, shown)
        }
        if let passphrase = try PassphraseInput.given(inv) {
            do { return try parse(passphrase) } catch let e as KeyFormatError { throw failure(e, shown) }
        }
        try inv.requirePrompt(for: "the passphrase of \(shown)", alternative: PassphraseInput.alternative)
        var attempt = 1
        while true {
            let passphrase = try PassphraseInput.prompt(inv, "Passphrase for \(shown): ")
            do {
                return try parse(passphrase)
            } catch let e as KeyFormatError where e.kind == .wrongPassphrase && attempt < maxPromptAttempts {
                inv.note("Incorrect passphrase, try again.")
                attempt += 1
            } catch let e as KeyFormatError {
                throw failure(e, shown)
            }
        }
    }

    /// From this many bcrypt rounds on (about 0.2 s; OpenSSH writes 16 or 24) decrypting shows progress.
    static let progressRounds = 64

    /// A format error with the file named in it.
    static func failure(_ e: KeyFormatError, _ shown: String) -> Error {
        switch e.kind {
        case .wrongPassphrase:
            CLIError(.wrongPassphrase, "incorrect passphrase for \(shown)", hint: "Check the passphrase and try again; nothing was stored.")
        case .passphraseRequired:
            CLIError.inputNeeded("\(shown) is encrypted and needs a passphrase",
                                 hint: "Use --passphrase-stdin or --passphrase-file, or run on a terminal to be asked.")
        case .invalid, .unsupported:
            CLIError.failure("cannot import \(shown): \(e.reason)")
        }
    }

    /// Not a private key. Only a file that starts like a public key line (a key type name)
    /// is copied out of secure memory, to be read as one.
    private static func notAKey(_ file: SecretBytes, _ shown: String) -> CLIError {
        let looksPublic = file.withUnsafeBytes { raw in
            let head = raw.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d })
            return ["ssh-", "ecdsa-sha2-", "sk-"].contains { head.starts(with: $0.utf8) }
        }
        if looksPublic, (try? PublicKeyLine.parse(file.withUnsafeBytes { String(decoding: $0.prefix(16384), as: UTF8.self) })) != nil {
            return CLIError.failure("\(shown) is a public key, not a private key",
                                    hint: "Import the private key file (usually the same name without .pub).")
        }
        if file.isEmpty { return CLIError.failure("cannot import \(shown): the file is empty") }
        return CLIError.failure("cannot import \(shown): not a private key file hostbook knows (expected OpenSSH, PEM, PKCS#8 or PuTTY .ppk)")
    }
}
