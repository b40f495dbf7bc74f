// The words of each KeysRefusal (keys and certificate authorities): what is wrong, what to
// do, and the documented exit code (docs/command-line.md, "Exit codes").
import HostStore
import System
import Vault
import Workflows

extension KeysRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .database, .vault, .unreadable, .keyFileTooLarge, .notWritten, .privateKeyMissing, .privateKeyDamaged,
             .privateKeyMismatch, .certificateUnreadable, .cannotImport, .publicKeyNotPrivate, .emptyKeyFile,
             .unknownKeyFormat, .cannotGenerate, .authorityKeyMissing, .authorityKeyDamaged, .certificateNotWritten,
             .revocationListNotWritten: .failure
        case .keyNotFound, .noKeyInAgent, .noCertificate: .notFound
        case .standardInputUnreadable, .isAFolder: .failure
        case .notAPublicKey, .certificateNotPublicKey: .rejected
        case .deployLoginFailed, .deployAppendFailed, .deployVerifyFailed: .failure
        case .keyNameTaken, .certificateRefused, .keyOnlySigns: .rejected
        case .nameNeedsOneKey: .usage
        case .outputExists, .badKeyName, .keyInUpstreamAgent, .keyNotHeld, .notACertificate, .publicKeyNotCertificate,
             .badAuthorityName, .cannotCertify: .rejected
        case .incorrectPassphrase: .wrongPassphrase
        case .passphraseRequired: .inputNeeded
        case .validFromNotATime, .validToNotATime, .validNotADuration, .validOutOfBounds, .validityMissing, .validAndValidTo,
             .expiresBeforeValid, .windowOutOfBounds: .usage
        }
    }

    var message: String {
        switch self {
        case .database(let e, let step): HostStoreErrorPresentation.cliError(e, doing: Self.doing(step)).message
        case .vault(let e, .readPrivateKey(let key)): "cannot read the private key of '\(key.escapedForTerminal)': \(e.message)"
        case .vault(let e, .exportPrivateKey(let key)): "cannot read the private key of '\(key)' from the vault: \(e.message)"
        case .vault(let e, .readAuthorityKey(let ca)): "cannot read the private key of certificate authority '\(ca)': \(e.message)"
        case .keyNotFound(let name): "no key named '\(name)'"
        case .keyNameTaken(let name): "a key named '\(name)' already exists"
        case .certificateRefused(let refusal, let file, let key, let fingerprint):
            refusal.cliError(file: file, key: key, fingerprint: fingerprint).message
        case .noCertificate(let key): "key '\(key)' has no certificate"
        case .keyOnlySigns(let key, let namespaces):
            "the key '\(key.escapedForTerminal)' signs only in the namespaces \(namespaces.joined(separator: ", ").escapedForTerminal) and cannot log in to a server"
        case .deployLoginFailed(let host, let target, _): "could not log in to '\(host)' (\(target)) to install the key; nothing was changed"
        case .deployAppendFailed(let host, let status):
            "could not add the key to ~/.ssh/authorized_keys on '\(host)' (the remote command exited with \(status)); nothing was changed"
        case .deployVerifyFailed(let key, let host):
            "the key '\(key)' is in ~/.ssh/authorized_keys on '\(host)', but a login with it failed; the host was not changed"
        case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        case .standardInputUnreadable: "cannot read the public key from standard input"
        case .isAFolder(let path): "cannot read '\(path)': it is a folder"
        case .notAPublicKey(let path, let reason): "'\(path)' is not a public key: \(reason)"
        case .certificateNotPublicKey(let path): "'\(path)' is a certificate, not a plain public key"
        case .keyFileTooLarge(let path): "'\(path)' is larger than 1 MiB; that is not a key file"
        case .outputExists(let path): "'\(path)' already exists"
        case .notWritten(let reason): reason
        case .badKeyName(let name, let problem, _):
            switch problem {
            case .empty: "the key name is empty"
            case .tooLong: "the key name is longer than \(KeyName.maxLength) characters"
            case .spaceOrDash: "the key name '\(name)' starts or ends with a space or starts with '-'"
            case .controlCharacter: "the key name contains a control character"
            }
        case .keyInUpstreamAgent(let name):
            "the key '\(name.escapedForTerminal)' lives in another agent: hostbook holds no private key of it"
        case .keyNotHeld(let name, let location):
            "the key '\(name.escapedForTerminal)' lives on a \(location.rawValue): hostbook holds no private key of it"
        case .privateKeyMissing(let name): "the private key of '\(name.escapedForTerminal)' is not in the vault"
        case .privateKeyDamaged(let name, let reason): "the private key of '\(name.escapedForTerminal)' in the vault is damaged: \(reason)"
        case .privateKeyMismatch(let name, let fingerprint):
            "the private key in the vault does not match key '\(name.escapedForTerminal)' (\(fingerprint))"
        case .certificateUnreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        case .notACertificate(let path, let reason): "'\(path)' holds no certificate: \(reason)"
        case .publicKeyNotCertificate(let path): "'\(path)' is a public key, not a certificate"
        case .incorrectPassphrase(let source): "incorrect passphrase for \(KeyPresentation.shown(source))"
        case .passphraseRequired(let source): "\(KeyPresentation.shown(source)) is encrypted and needs a passphrase"
        case .cannotImport(let source, let reason): "cannot import \(KeyPresentation.shown(source)): \(reason)"
        case .publicKeyNotPrivate(let source): "\(KeyPresentation.shown(source)) is a public key, not a private key"
        case .emptyKeyFile(let source): "cannot import \(KeyPresentation.shown(source)): the file is empty"
        case .unknownKeyFormat(let source):
            "cannot import \(KeyPresentation.shown(source)): not a private key file hostbook knows (expected OpenSSH, PEM, PKCS#8 or PuTTY .ppk)"
        case .cannotGenerate(let reason): "cannot generate the key: \(reason)"
        case .noKeyInAgent(let socket, let fingerprint):
            "the agent at \(socket.escapedForTerminal) holds no key \(fingerprint.escapedForTerminal)"
        case .nameNeedsOneKey(let count): "--name names one key, and the agent lists \(count)"
        case .badAuthorityName(let name): "'\(name)' cannot name a certificate authority"
        case .authorityKeyMissing(let ca): "the private key of certificate authority '\(ca)' is not in the vault"
        case .authorityKeyDamaged(let ca, let reason): "the private key of certificate authority '\(ca)' in the vault is damaged: \(reason)"
        case .cannotCertify(let reason): "cannot certify that key: \(reason)"
        case .certificateNotWritten(_, let serial, let path, let failure): "signed serial \(serial), but cannot write '\(path)': \(Self.why(failure))"
        case .revocationListNotWritten(let path, let failure): "cannot write '\(path)': \(Self.why(failure))"
        case .validFromNotATime(let text): "--valid-from '\(text)' is not a time"
        case .validToNotATime(let text): "--valid-to '\(text)' is not a time"
        case .validNotADuration(let text): "--valid '\(text)' is not a duration"
        case .validOutOfBounds(let text): "--valid must be from 5s to 3650d, not '\(text)'"
        case .validityMissing: "say how long the certificate is valid: --valid DURATION or --valid-to TIME"
        case .validAndValidTo: "--valid and --valid-to cannot be given together"
        case .expiresBeforeValid: "the certificate would expire before it becomes valid (--valid-to is not after --valid-from)"
        case .windowOutOfBounds: "the validity window must be from 5s to 3650d long"
        }
    }

    var hint: String? {
        let certificateFile = "Give the certificate file (usually KEY-cert.pub, as ssh-keygen -s writes it)."
        let timeHint = "Give a time as 2026-12-07T10:00:00Z (RFC 3339, with Z or an offset) or 'now'."
        switch self {
        case .database(let e, let step): return HostStoreErrorPresentation.cliError(e, doing: Self.doing(step)).hint
        case .vault(let e, .readPrivateKey): return e.hint ?? "Run 'hostbook vault status' to see what is wrong."
        case .vault(let e, _): return e.hint
        case .keyNotFound: return "Run 'hostbook keys list' to see the keys."
        case .keyNameTaken: return "Choose another name with --rename."
        case .certificateRefused(let refusal, let file, let key, let fingerprint):
            return refusal.cliError(file: file, key: key, fingerprint: fingerprint).hint
        case .noCertificate(let key): return "Run 'hostbook keys show \(ShellQuote.quote(key))' to see it."
        case .keyOnlySigns(let key, _):
            return "Deploy another key, or lift the restriction with 'hostbook keys edit \(key.escapedForTerminal) --no-namespace'."
        case .deployLoginFailed(let host, _, let byPassword):
            return byPassword ? "Check the stored password ('hostbook edit \(host) --password-stdin') and try again."
                              : "Check that 'hostbook ssh \(host)' logs in, then try again."
        case .deployAppendFailed: return "The server needs a POSIX sh, grep and tail, and a writable home folder; see the messages above."
        case .deployVerifyFailed: return "The server may not read that file (AuthorizedKeysFile, StrictModes) or may not accept the key's type."
        case .notAPublicKey: return "Give the .pub file of the key, as ssh-keygen writes it."
        case .certificateNotPublicKey: return "Give the key's .pub file, not its -cert.pub."
        case .outputExists: return "Choose another --output file or remove it first."
        case .badKeyName(_, _, let option):
            return "Choose a name with \(option): 1 to \(KeyName.maxLength) characters, no spaces at either end, no control characters."
        case .keyInUpstreamAgent: return "hostbook signs with it through that agent ('hostbook agent upstream list')."
        case .privateKeyMissing: return "Run 'hostbook doctor' to check the vault, or import the key again."
        case .privateKeyMismatch: return "Run 'hostbook doctor'."
        case .certificateUnreadable, .notACertificate, .publicKeyNotCertificate: return certificateFile
        case .incorrectPassphrase: return "Check the passphrase and try again; nothing was stored."
        case .passphraseRequired: return "Use --passphrase-stdin or --passphrase-file, or run on a terminal to be asked."
        case .publicKeyNotPrivate: return "Import the private key file (usually the same name without .pub)."
        case .noKeyInAgent(let socket, _): return "'ssh-add -l -E sha256' with SSH_AUTH_SOCK=\(AgentCommands.shellQuoted(socket)) lists its keys."
        case .nameNeedsOneKey: return "Choose the key with --key FINGERPRINT."
        case .badAuthorityName:
            return "Choose a name of 1 to \(KeyName.maxLength) characters, no spaces at either end, no control characters."
        case .authorityKeyMissing: return "Run 'hostbook doctor' to check the vault."
        case .certificateNotWritten(let ca, let serial, _, _):
            return "The certificate is recorded; revoke it with 'hostbook ca revoke \(ShellQuote.quote(ca)) --serial \(serial)' if it is not wanted."
        case .validFromNotATime, .validToNotATime: return timeHint
        case .validNotADuration: return "Give a number and a unit: 5s to 3650d (s, m, h, d or w)."
        case .validityMissing: return "For example --valid 8h, or --valid-from 2026-12-07T09:00:00Z --valid-to 2026-12-07T17:00:00Z."
        case .unreadable, .standardInputUnreadable, .isAFolder, .keyFileTooLarge, .notWritten, .keyNotHeld, .privateKeyDamaged, .cannotImport, .emptyKeyFile,
             .unknownKeyFormat, .cannotGenerate, .authorityKeyDamaged, .cannotCertify,
             .revocationListNotWritten, .validOutOfBounds, .validAndValidTo, .expiresBeforeValid, .windowOutOfBounds:
            return nil
        }
    }

    /// Why a file was not written.
    private static func why(_ failure: AtomicFile.Failure) -> String {
        switch failure {
        case .exists: "it exists"
        case .io(let text): text
        }
    }

    /// What was being done when the database failed, as the message starts.
    private static func doing(_ step: DatabaseStep) -> String {
        switch step {
        case .open(let path): "cannot open the database '\(path)'"
        case .readKeys: "cannot read the keys"
        case .saveKeys: "cannot save the keys"
        case .saveTokenKeys: "cannot save the token's keys"
        case .readAuthorities: "cannot read the certificate authorities"
        case .recordCertificate: "cannot record the certificate (nothing was signed)"
        case .recordRevocation: "cannot record the revocation"
        case .changeKey(let name): "cannot change key '\(name)'"
        case .attachCertificate: "cannot attach the certificate"
        case .removeCertificate: "cannot remove the certificate"
        }
    }
}
