// `hostbook keys cert add KEY FILE`: attaches the OpenSSH certificate in FILE to KEY
// (replacing the one it had: a renewal), after checking that it certifies KEY and that
// its CA signature verifies (KeyCertificates).
import CommandLineKit
import HostStore
import Workflows
import KeyFormats

enum KeysCertAdd {
    static let spec = CommandSpec(
        ["keys", "cert", "add"], changesHostsOrKeys: true,
        summary: "Attach an OpenSSH certificate to a key (the agents offer it with the key)",
        usage: "KEY FILE",
        discussion: """
        FILE is the certificate your CA made for KEY's public key (ssh-keygen -s writes it as
        KEY-cert.pub). It must certify KEY (exit 5 otherwise); it replaces the certificate KEY
        had, so renewing is running this again with the new file. The certificate is public
        data and is kept in the database. The agents offer it after the key, to the same
        destinations, while it is valid; hostbook ssh and the installed ssh configuration
        give it to ssh as its CertificateFile.
        """,
        positionals: [.required("KEY", "The key the certificate certifies", completes: SavedNames.keys),
                      .required("FILE", "The certificate file (KEY-cert.pub)", completes: .files)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!, file = inv.args.positional(1)!
        let attached = try KeyCertificateAttachment.attach(file: file, to: name, workspace: inv.workspace)
        let (stored, certificate, replaced) = (attached.key, attached.certificate, attached.replaced)
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
            return
        }
        inv.print("Attached to key '\(stored.name)': \(KeyCertificatePresentation.summary(certificate))")
        if let replaced, replaced != certificate {
            inv.note("It replaces the certificate with serial \(replaced.serial) (key id \"\(replaced.keyID)\").")
        }
        KeyCertificatePresentation.warnings(certificate, inv)
    }
}
