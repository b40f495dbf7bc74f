// `hostbook keys import-token MODULE [--slot N | --label L] [--name PREFIX] [--allow-module PATH]
// [--pin-stdin]`: records the public keys of a PKCS#11 token (public halves, the token's
// identity and each object's CKA_ID) in the database; nothing secret is stored. With
// --pin-stdin the PIN is checked by logging in first (a wrong PIN: exit 6, nothing stored).
import CommandLineKit
import HostStore
import Workflows
import KeyFormats
import SecureMemory
import Tokens

enum KeysImportToken {
    static let spec = CommandSpec(
        ["keys", "import-token"], changesHostsOrKeys: true,
        summary: "Record the public keys of a PKCS#11 token (smart card, PIV key, HSM)",
        usage: "MODULE [--slot N | --label L] [--name PREFIX] [--allow-module PATH] [--pin-stdin]",
        discussion: """
        Loads the PKCS#11 module (e.g. /usr/lib/x86_64-linux-gnu/opensc-pkcs11.so, or
        libykcs11.so for a YubiKey's PIV keys) and records each RSA, ECDSA and Ed25519
        public key on the token: its public half, the token's manufacturer, model, serial
        and label, and the object's CKA_ID. The private keys stay on the token and no PIN
        is stored. MODULE must be an absolute path under /usr/lib or /usr/local/lib unless
        --allow-module names it. A key is named after its object label (PREFIX before it
        when given, -2, -3 ... after a name already taken); a key recorded already is left
        as it is. With --pin-stdin the PIN is read from standard input and checked on the
        token first: a wrong PIN is exit 6 and nothing is recorded.
        """,
        positionals: [.required("MODULE", "The PKCS#11 module (.so), an absolute path", completes: .files)],
        options: [
            .value(.slot, "N", "The token in slot N"),
            .value(.label, "L", "The token labelled L"),
            .value(.name, "PREFIX", "Put PREFIX before each key's name"),
            .value(.allowModule, "PATH", "Allow loading the module at PATH outside the system library folders", repeatable: true),
            .flag(.pinStdin, "Read the token's PIN from standard input and check it before recording"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let path = inv.args.positional(0)!
        try inv.args.exclusive(.slot, .label)
        let slot = try inv.args.int(.slot, in: 0...Int(Int32.max)).map { UInt($0) }
        let prefix = inv.args.value(.name) ?? ""
        let allowed = inv.args.values(.allowModule)
        let pin: SecretBytes? = inv.args.flag(.pinStdin) ? try Terminal.readSecretFromStdin(what: "the PIN") : nil
        if let pin, pin.isEmpty { throw CLIError.rejected("the PIN is empty", hint: "Give the token's user PIN on standard input.") }
        let result: TokenKeyImport.Result
        do {
            result = try TokenKeyImport.run(TokenKeyImport.Request(module: path, slot: slot, label: inv.args.value(.label), allowed: allowed,
                                                                   pin: pin, prefix: prefix), workspace: inv.workspace)
        } catch let error as TokenError { throw error.cliError() }
        let (token, skipped) = (result.token, result.skipped)
        if inv.json {
            inv.printJSON(.array(result.recorded.map { json($0.key, $0.place) }))
        } else {
            for (key, _) in result.recorded {
                inv.print("Recorded key '\(key.name)' (\(key.algorithm) \(key.fingerprint)) on token '\(token.label)'")
            }
            if result.recorded.isEmpty && skipped == 0 { inv.note("The token holds no public keys ssh can use.") }
            if skipped > 0 { inv.note("\(skipped) key(s) were recorded already and are left as they are.") }
        }
    }

    static func json(_ key: StoredKey, _ place: TokenKeyPlace) -> JSONValue {
        let line = (try? key.publicKey).map { $0.line(comment: key.name) } ?? ""
        return .object([
            ("name", .string(key.name)),
            ("type", .string(key.algorithm)),
            ("bits", .int(key.bits)),
            ("fingerprint", .string(key.fingerprint)),
            ("public_key", .string(line)),
            ("location", .string(key.location.rawValue)),
            ("module", .string(place.module)),
            ("token", .object([
                ("label", .string(place.tokenLabel)),
                ("manufacturer", .string(place.tokenManufacturer)),
                ("model", .string(place.tokenModel)),
                ("serial", .string(place.tokenSerial)),
            ])),
            ("object_id", .string(place.objectID.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined())),
            ("object_label", .string(place.objectLabel)),
        ])
    }
}
