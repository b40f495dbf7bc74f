// `hostbook ca log NAME`: every certificate the CA signed, by serial, with whether its KRL
// revokes it, then what it revoked.
import CommandLineKit
import HostStore
import Workflows
import KeyFormats

enum CALog {
    static let spec = CommandSpec(
        ["ca", "log"],
        summary: "List the certificates a certificate authority signed and what it revoked",
        usage: "NAME [--wide]",
        positionals: [.required("NAME", "The certificate authority")],
        options: [Invocation.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let (ctx, ca) = try CAContext.existing(inv.workspace, named: inv.args.positional(0)!)
        let (issued, revocations, krl) = try ctx.reading {
            (try ctx.store.issued(authority: ca.name), try ctx.store.revocations(authority: ca.name),
             try ctx.store.revocationList(authority: ca.name, now: CertificateValidity.now()))
        }
        func revocation(_ i: IssuedCertificate) -> KeyRevocationList.Revocation? {
            krl.revocation(of: i.certificate.key, certificate: i.certificate)
        }
        if inv.json {
            inv.printJSON(.object([
                ("ca", .string(ca.name)),
                ("certificates", .array(issued.map { CAPresentation.json($0, ca: ca.name, revocation: revocation($0)) })),
                ("revocations", .array(revocations.map(CAPresentation.json))),
            ]))
            return
        }
        guard !issued.isEmpty || !revocations.isEmpty else {
            inv.note("Certificate authority '\(ca.name)' has signed nothing yet. Sign with 'hostbook ca sign \(ShellQuote.quote(ca.name)) ...'.")
            return
        }
        var table = Table(columns: [
            Table.column("SERIAL", shrinks: false), Table.column("ROLE", shrinks: false), Table.column("KEY ID", minimum: 8),
            Table.column("PRINCIPALS", minimum: 8), Table.column("VALID UNTIL", shrinks: false), Table.column("REVOKED", shrinks: false),
        ])
        for i in issued {
            let c = i.certificate
            table.add([String(i.serial), CAPresentation.role(c.role), c.keyID, c.principals.joined(separator: ","),
                       CertificateValidity.text(c.validBefore), revocation(i).map(CAPresentation.revocationText) ?? "-"])
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
        for r in revocations {
            switch r.what {
            case .serial(let s): inv.print("revoked serial \(s) at \(r.revokedAt)")
            case .key(let k): inv.print("revoked key \(k.sha256Fingerprint) at \(r.revokedAt)")
            case .keyID(let id): inv.print("revoked key id '\(id)' at \(r.revokedAt)")
            }
        }
    }
}
