// `hostbook keys import-token MODULE [--slot N | --label L] [--name PREFIX] [--allow-module PATH]
// [--pin-stdin]`: records the public keys of a PKCS#11 token (public halves, the token's
// identity and each object's CKA_ID) in the database; nothing secret is stored. With
// --pin-stdin the PIN is checked by logging in first (a wrong PIN: exit 6, nothing stored).
import HostStore
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
        let module: TokenModule
        let token: TokenInfo
        let objects: [TokenKeyObject]
        do {
            module = try TokenModule.load(path: path, allowed: allowed)
            token = try module.token(slot: slot, label: inv.args.value(.label))
            if let pin { try module.checkPIN(pin, on: token) }
            objects = try module.publicKeys(on: token)
        } catch { throw error.cliError() }

        let ctx = try KeysContext.open(inv)
        let place = { (object: TokenKeyObject) in
            TokenKeyPlace(module: path, tokenLabel: token.label, tokenManufacturer: token.manufacturer, tokenModel: token.model,
                          tokenSerial: token.serial, objectID: object.id, objectLabel: object.label)
        }
        var new: [(name: String, publicKey: PublicKey, place: TokenKeyPlace)] = []
        var taken = Set<String>()
        var skipped = 0
        for object in objects {
            let fingerprint = object.publicKey.sha256Fingerprint
            if try ctx.store.find(fingerprint: fingerprint) != nil || new.contains(where: { $0.publicKey == object.publicKey }) {
                skipped += 1
                continue
            }
            let base = prefix + baseName(object)
            var name = base
            var n = 2
            while try taken.contains(name.lowercased()) || ctx.store.find(name: name) != nil {
                name = "\(base)-\(n)"
                n += 1
            }
            try KeyName.validate(name)
            taken.insert(name.lowercased())
            new.append((name, object.publicKey, place(object)))
        }
        let stored: [StoredKey]
        do { stored = try TokenKeys(database: ctx.database).insert(new) } catch { throw KeysFailure.database(error, "cannot save the token's keys") }

        if inv.json {
            inv.printJSON(.array(zip(stored, new).map { json($0.0, $0.1.place) }))
        } else {
            for (key, _) in zip(stored, new) {
                inv.print("Recorded key '\(key.name)' (\(key.algorithm) \(key.fingerprint)) on token '\(token.label)'")
            }
            if stored.isEmpty && skipped == 0 { inv.note("The token holds no public keys ssh can use.") }
            if skipped > 0 { inv.note("\(skipped) key(s) were recorded already and are left as they are.") }
        }
    }

    /// The object's label when it makes a key name, else "token-key".
    static func baseName(_ object: TokenKeyObject) -> String {
        (try? KeyName.validate(object.label)) != nil && !object.label.isEmpty ? object.label : "token-key"
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
