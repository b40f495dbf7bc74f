// `hostbook ca create NAME [--type ed25519|ecdsa|rsa]`: a new certificate authority whose
// private key is made here and kept only in the vault.
import CommandLineKit
import Credentials
import Workflows
import HostStore
import KeyFormats

enum CACreate {
    static let spec = CommandSpec(
        ["ca", "create"],
        summary: "Create a certificate authority; its private key stays in the vault",
        usage: "NAME [--type ed25519|ecdsa|rsa]",
        discussion: """
        --type defaults to ed25519 (ecdsa is P-256, rsa 3072 bits, signing with rsa-sha2-512).
        The private key is generated here and written only to the vault, never to a file.
        Prints the CA's public line: put it in sshd's TrustedUserCAKeys file for user
        certificates, or after '@cert-authority HOSTS' in known_hosts for host certificates.
        """,
        positionals: [.required("NAME", "Name of the new certificate authority")],
        options: [.value(.type, "TYPE", "ed25519 (default), ecdsa or rsa")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        try CAName.validate(name)
        let typeName = inv.args.value(.type) ?? "ed25519"
        guard let type = KeyGenerationType(rawValue: typeName) else {
            throw CLIError.usage("--type must be ed25519, ecdsa or rsa, not '\(typeName)'")
        }
        let ca = try AuthorityCreation.create(name: name, type: type, workspace: inv.workspace)
        let line = try CAContext.publicLine(ca)
        if inv.json {
            inv.printJSON(try CAPresentation.json(ca, issued: 0, revoked: 0))
        } else {
            inv.note("Created certificate authority '\(ca.name)' (\(ca.fingerprint)); its private key is in the vault.")
            inv.print("\(line)")
        }
    }
}
