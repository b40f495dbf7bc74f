// `hostbook ca public NAME`: the CA's public line, for sshd's TrustedUserCAKeys (or after
// `@cert-authority HOSTS` in known_hosts).
import CommandLineKit
import Workflows

enum CAPublic {
    static let spec = CommandSpec(
        ["ca", "public"],
        summary: "Print a certificate authority's public line (for TrustedUserCAKeys)",
        usage: "NAME",
        discussion: """
        Servers trust the CA's user certificates with this line in the file sshd_config's
        TrustedUserCAKeys names. Clients trust its host certificates with
        '@cert-authority HOSTS LINE' in known_hosts ('hostbook known-hosts import' reads it).
        """,
        positionals: [.required("NAME", "The certificate authority")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let (_, ca) = try CAContext.existing(inv.workspace, named: inv.args.positional(0)!)
        let line = try CAContext.publicLine(ca)
        if inv.json {
            inv.printJSON(.object([("name", .string(ca.name)), ("public_key", .string(line))]))
        } else {
            inv.print("\(line)")
        }
    }
}
