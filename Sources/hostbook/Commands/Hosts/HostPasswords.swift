// A host's password: read from stdin or a no-echo prompt (never argv). It is kept in the
// vault under (db id, kind password, owner host uuid); the writes across the two stores are
// Credentials' CredentialStore's (addHost, editHost, removeHost).
import CommandLineKit
import System
import HostStore
import SecureMemory
import Vault

enum HostPasswords {
    /// Reads the password for `--password-stdin`: a no-echo prompt when stdin is a terminal
    /// (exit 3 with --no-input), else everything on stdin minus one trailing newline.
    static func read(_ inv: Invocation, hostName: String) throws -> SecretBytes {
        let secret: SecretBytes
        if FileDescriptor.standardInput.isTerminal {
            secret = try inv.promptSecret("Password for \(hostName): ", alternative: "--password-stdin with the password piped in")
        } else {
            secret = try Terminal.readSecretFromStdin(what: "the password")
        }
        guard secret.count > 0 else {
            throw CLIError.rejected("the password is empty", hint: "Give the password on stdin, e.g. from a password manager.")
        }
        return secret
    }

    /// Runs a vault call, turning a vault failure into a one-line error that says what was
    /// being done.
    static func vault<R>(_ doing: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as VaultError {
            throw CLIError.failure("cannot \(doing): \(e.message)", hint: e.hint ?? "Run 'hostbook vault status' to see what is wrong.")
        }
    }
}
