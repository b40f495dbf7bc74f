// `hostbook keys generate NAME [--type ed25519|ecdsa|rsa] [--bits N] [--comment C]`
import HostStore
import KeyFormats

enum KeysGenerate {
    static let spec = CommandSpec(
        ["keys", "generate"], changesHostsOrKeys: true,
        summary: "Generate a new key pair and keep the private key in the vault",
        usage: "NAME [--type ed25519|ecdsa|rsa] [--bits N] [--comment C]",
        discussion: """
        --type defaults to ed25519. --bits: ecdsa 256 (default), 384 or 521; rsa 2048 to 16384
        (default 3072); not used for ed25519. The comment defaults to NAME. Prints the public
        key line to paste into authorized_keys.
        """,
        positionals: [.required("NAME", "Name to store the key under")],
        options: [
            .value(.type, "TYPE", "ed25519 (default), ecdsa or rsa"),
            .value(.bits, "N", "Key size for ecdsa or rsa"),
            .value(.comment, "C", "Comment (default: NAME)"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        try KeyName.validate(name)
        let typeName = inv.args.value(.type) ?? "ed25519"
        guard let type = KeyGenerationType(rawValue: typeName) else {
            throw CLIError.usage("--type must be ed25519, ecdsa or rsa, not '\(typeName)'")
        }
        let bits = try inv.args.int(.bits, in: 1...16384)
        if let bits {
            switch type {
            case .ed25519: throw CLIError.usage("--bits does not apply to ed25519 keys")
            case .ecdsa where ![256, 384, 521].contains(bits):
                throw CLIError.usage("--bits for ecdsa must be 256, 384 or 521, not \(bits)")
            case .rsa where bits < 2048:
                throw CLIError.usage("--bits for rsa must be from 2048 to 16384, not \(bits)")
            default: break
            }
        }
        let comment = inv.args.value(.comment) ?? name
        if comment.contains("\n") || comment.contains("\r") { throw CLIError.usage("--comment must be one line") }

        let stored = try generate(KeysContext.open(inv), name: name, type: type, bits: bits, comment: comment)
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            inv.note("Generated key '\(stored.name)': \(try KeyPresentation.summary(stored))")
            inv.print("\(try stored.publicKey.line(comment: stored.comment))")
        }
    }

    /// Generates a key and stores it under `name` (the vault item, then the row); also what
    /// `git setup --new-key` makes its signing key with.
    static func generate(_ ctx: KeysContext, name: String, type: KeyGenerationType = .ed25519, bits: Int? = nil,
                         comment: String) throws -> StoredKey {
        _ = try ctx.credentials.admission(name: name, publicKey: nil)
        let key: PrivateKey
        do {
            key = try PrivateKeyGenerator.generate(type, bits: bits, comment: comment)
        } catch let e as KeyFormatError {
            throw CLIError.failure("cannot generate the key: \(e.reason)")
        }
        return try ctx.credentials.store(key, name: name, format: "generated").key
    }
}
