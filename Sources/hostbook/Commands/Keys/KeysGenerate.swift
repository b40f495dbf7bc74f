// `hostbook keys generate NAME [--type ed25519|ecdsa|rsa|ed25519-sk|ecdsa-sk] [--bits N]
//  [--comment C] [--resident] [--verify-required] [--application ssh:NAME]`
import CommandLineKit
import HostStore
import Workflows
import KeyFormats
import SecurityKeys

enum KeysGenerate {
    static let spec = CommandSpec(
        ["keys", "generate"], changesHostsOrKeys: true,
        summary: "Generate a new key pair and keep the private key in the vault",
        usage: "NAME [--type ed25519|ecdsa|rsa|ed25519-sk|ecdsa-sk] [--bits N] [--comment C] [--resident] [--verify-required] [--application ssh:NAME]",
        discussion: """
        --type defaults to ed25519. --bits: ecdsa 256 (default), 384 or 521; rsa 2048 to 16384
        (default 3072); not used for ed25519. The comment defaults to NAME. Prints the public
        key line to paste into authorized_keys.
        ed25519-sk and ecdsa-sk make the key on a FIDO2 security key (touch it when it
        blinks): the vault keeps only its key handle. --resident keeps the credential on the
        authenticator (load it elsewhere with 'keys import-resident'), --verify-required asks
        for its PIN at every signature, --application sets the FIDO application (default
        ssh:). The provider is SSH_SK_PROVIDER's library, else OpenSSH's ssh-sk-helper. A PIN
        the authenticator asks for is read on the terminal.
        """,
        positionals: [.required("NAME", "Name to store the key under")],
        options: [
            .value(.type, "TYPE", "ed25519 (default), ecdsa, rsa, ed25519-sk or ecdsa-sk"),
            .value(.bits, "N", "Key size for ecdsa or rsa"),
            .value(.comment, "C", "Comment (default: NAME)"),
            .flag(.resident, "Security keys: keep the credential on the authenticator"),
            .flag(.verifyRequired, "Security keys: ask for the PIN at every signature"),
            .value(.application, "ssh:NAME", "Security keys: the FIDO application (default ssh:)"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        try KeyName.validate(name)
        let typeName = inv.args.value(.type) ?? "ed25519"
        if let kind = SecurityKeyKind(rawValue: typeName) { return try generateOnSecurityKey(inv, name: name, kind: kind) }
        for option in [OptionName.resident, .verifyRequired] where inv.args.flag(option) {
            throw CLIError.usage("--\(option.rawValue) applies only to ed25519-sk and ecdsa-sk keys")
        }
        if inv.args.value(.application) != nil { throw CLIError.usage("--application applies only to ed25519-sk and ecdsa-sk keys") }
        guard let type = KeyGenerationType(rawValue: typeName) else {
            throw CLIError.usage("--type must be ed25519, ecdsa, rsa, ed25519-sk or ecdsa-sk, not '\(typeName)'")
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

        let stored = try KeyGeneration.generate(KeysContext.open(inv.workspace), name: name, type: type, bits: bits, comment: comment)
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            inv.note("Generated key '\(stored.name)': \(try KeyPresentation.summary(stored))")
            inv.print("\(try stored.publicKey.line(comment: stored.comment))")
        }
    }

    /// Makes a new credential on the security key and stores its handle under `name`.
    private static func generateOnSecurityKey(_ inv: Invocation, name: String, kind: SecurityKeyKind) throws {
        if inv.args.value(.bits) != nil { throw CLIError.usage("--bits does not apply to \(kind.rawValue) keys") }
        let application = inv.args.value(.application) ?? "ssh:"
        guard application.hasPrefix("ssh:"), !application.contains(where: { $0.isNewline || $0 == " " }) else {
            throw CLIError.usage("--application must start with 'ssh:' (e.g. ssh:\(name)), not '\(application)'")
        }
        let comment = inv.args.value(.comment) ?? name
        if comment.contains("\n") || comment.contains("\r") { throw CLIError.usage("--comment must be one line") }
        var flags: SecurityKeys.SecurityKeyFlags = .userPresence
        if inv.args.flag(.resident) { flags.insert(.resident) }
        if inv.args.flag(.verifyRequired) { flags.insert(.userVerification) }
        let ctx = try KeysContext.open(inv.workspace)
        _ = try ctx.credentials.admission(name: name, publicKey: nil)
        let middleware: any SecurityKeyMiddleware
        do { middleware = try SecurityKeyAccess.provider(inv.environment).middleware() } catch { throw error.cliError(key: name) }
        let request = SecurityKeyEnrollment(kind: kind, application: application, flags: flags, comment: comment)
        if inv.stderrIsTerminal { inv.note("Touch your security key for '\(name)' when it blinks.") }
        let enrolled = try SecurityKeyAccess.withPIN(inv, key: name) { (pin) throws(SecurityKeyError) in try middleware.enroll(request, pin: pin) }
        let stored = try ctx.credentials.store(enrolled.key, name: name, format: "generated").key
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            inv.note("Generated key '\(stored.name)' on the security key: \(try KeyPresentation.summary(stored))")
            inv.print("\(try stored.publicKey.line(comment: stored.comment))")
        }
    }
}
