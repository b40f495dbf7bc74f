// `hostbook ca revoke NAME (--serial N | --public-key FILE | --key-id ID)`: recorded, and in
// every KRL `ca krl` writes from then on.
import CommandLineKit
import HostStore
import Workflows
import KeyFormats

enum CARevoke {
    static let spec = CommandSpec(
        ["ca", "revoke"],
        summary: "Revoke a certificate by serial, a key, or a key id",
        usage: "NAME (--serial N | --public-key FILE | --key-id ID)",
        discussion: """
        --serial revokes the certificate of that serial this CA signed; --public-key revokes
        the key in FILE outright (every certificate of it, and the key itself); --key-id
        revokes every certificate of this CA with that key id. Revoking again changes nothing.
        Write the list servers read with 'hostbook ca krl NAME --output FILE' (sshd_config
        RevokedKeys FILE).
        """,
        positionals: [.required("NAME", "The certificate authority")],
        options: [
            .value(.serial, "N", "Revoke the certificate with serial N"),
            .value(.publicKey, "FILE", "Revoke the public key in FILE and its certificates"),
            .value(.keyID, "ID", "Revoke every certificate with key id ID"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let given = [inv.args.value(.serial) != nil, inv.args.value(.publicKey) != nil, inv.args.value(.keyID) != nil].filter { $0 }.count
        guard given == 1 else {
            throw CLIError.usage(given == 0 ? "say what to revoke: --serial N, --public-key FILE or --key-id ID"
                                            : "give only one of --serial, --public-key and --key-id")
        }
        let what: AuthorityRevocation.What
        if let text = inv.args.value(.serial) {
            guard let serial = UInt64(text), serial > 0 else { throw CLIError.usage("--serial must be a serial number (1 or more), not '\(text)'") }
            what = .serial(serial)
        } else if let path = inv.args.value(.publicKey) {
            what = .key(try PublicKeyLineFile.read(path).key)
        } else {
            let id = inv.args.value(.keyID)!
            guard !id.isEmpty else { throw CLIError.usage("--key-id must not be empty") }
            what = .keyID(id)
        }
        let (changed, ca) = try AuthorityRevocations.revoke(what, authority: name, workspace: inv.workspace)
        let described: String
        switch what {
        case .serial(let s): described = "serial \(s)"
        case .key(let k): described = "key \(k.sha256Fingerprint)"
        case .keyID(let id): described = "key id '\(id)'"
        }
        if inv.json {
            inv.printJSON(.object([("ca", .string(ca.name)), ("revoked", CAPresentation.json(AuthorityRevocation(what: what, revokedAt: ""))),
                                   ("changed", .bool(changed)), ("krl_version", .int(Int(clamping: ca.krlVersion)))]))
        } else if changed {
            inv.note("Revoked \(described) for certificate authority '\(ca.name)'. Write the new list with 'hostbook ca krl \(ShellQuote.quote(ca.name)) --output FILE'.")
        } else {
            inv.note("\(described) was revoked already; nothing changed.")
        }
    }
}
