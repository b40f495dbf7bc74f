// `hostbook ca sign NAME (--public-key FILE | --key KEY) --identity ID --principal P...
//  (--valid DURATION | --valid-to TIME) [--valid-from TIME] [--host] [--option NAME[=VALUE]]...
//  [--output FILE]`: a certificate signed by the CA's key from the vault, with the CA's next
// serial, recorded (`ca log`). User certificates get ssh-keygen's default extensions, changed
// by --option as ssh-keygen -O; host certificates carry none.
import CommandLineKit
import Workflows
import HostStore
import KeyFormats
import System

enum CASign {
    static let spec = CommandSpec(
        ["ca", "sign"],
        summary: "Sign a user or host certificate with a certificate authority",
        usage: "NAME (--public-key FILE | --key KEY) --identity ID --principal P... (--valid DURATION | --valid-to TIME) [--valid-from TIME] [--host] [--option NAME[=VALUE]]... [--output FILE]",
        discussion: """
        Certifies the public key in FILE (a .pub line, as ssh-keygen writes it) or of a saved
        key. --identity is the certificate's key id (sshd logs it); --principal, repeated,
        the user names (or, with --host, the host names) it is valid for. --valid DURATION
        (5s to 3650d: s, m, h, d or w) counts from now or from --valid-from; --valid-from and
        --valid-to take RFC 3339 times (2026-12-07T09:00:00Z) or 'now'.
        A user certificate permits X11, agent and port forwarding, a pty and ~/.ssh/rc, as
        ssh-keygen -s does; --option changes that with ssh-keygen -O's names: clear,
        no-pty (no-x11-forwarding, no-agent-forwarding, no-port-forwarding, no-user-rc),
        permit-*, force-command=CMD, source-address=CIDR[,CIDR...], verify-required,
        no-touch-required, extension:NAME[=VALUE], critical:NAME[=VALUE]. Host certificates
        carry no options. Serials increase per CA; every certificate is recorded ('hostbook
        ca log'). The certificate line goes to standard output, or to FILE with --output
        (replaced atomically, mode 0644), e.g. id_ed25519-cert.pub beside the key.
        """,
        positionals: [.required("NAME", "The certificate authority")],
        options: [
            .value(.publicKey, "FILE", "The public key to certify (a .pub file; - for standard input)"),
            .value(.key, "KEY", "Certify this saved key instead"),
            .value(.identity, "ID", "The certificate's key id"),
            .value(.principal, "P", "A user name (host name with --host) the certificate is for; repeat for more", repeatable: true),
            .value(.valid, "DURATION", "How long it is valid: 5s to 3650d"),
            .value(.validFrom, "TIME", "Valid from TIME (RFC 3339 or now; default now)"),
            .value(.validTo, "TIME", "Valid until TIME (instead of --valid)"),
            .flag(.host, "Sign a host certificate (principals are host names)"),
            .value(.option, "NAME[=VALUE]", "A certificate option as ssh-keygen -O takes it; repeatable", repeatable: true),
            .value(.output, "FILE", "Write the certificate line to FILE instead of standard output"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let role: Certificate.Role = inv.args.flag(.host) ? .host : .user
        guard let identity = inv.args.value(.identity) else {
            throw CLIError.usage("--identity ID is required", hint: "It is the certificate's key id, which sshd logs: e.g. --identity alice@laptop.")
        }
        guard !identity.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw CLIError.usage("--identity must not contain control characters")
        }
        let principals = inv.args.values(.principal)
        guard !principals.isEmpty else {
            throw CLIError.usage("give at least one --principal", hint: role == .user ? "The user names the certificate may log in as, e.g. --principal alice."
                                                                              : "The host names the certificate is for, e.g. --principal web.example.com.")
        }
        for p in principals where p.isEmpty || p.contains(",") || p.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f }) {
            throw CLIError.usage("'\(p)' cannot be a principal: it is empty or holds a comma, a space or a control character")
        }
        let window = try CertificateValidity.window(valid: inv.args.value(.valid), from: inv.args.value(.validFrom),
                                                    to: inv.args.value(.validTo), now: CertificateValidity.now())
        var options = role == .user ? CertificateOptions.userDefault : CertificateOptions.none
        for o in inv.args.values(.option) {
            guard role == .user else { throw CLIError.usage("--option applies to user certificates; host certificates carry none") }
            do { try options.apply(o) } catch { throw presented(error) }
        }
        let output = inv.args.value(.output)

        let subject: CertificateSigning.Subject
        switch (inv.args.value(.publicKey), inv.args.value(.key)) {
        case (let path?, nil): subject = .line(try PublicKeyLineFile.read(path))
        case (nil, let keyName?): subject = .key(keyName)
        case (nil, nil): throw CLIError.usage("say which key to certify: --public-key FILE or --key KEY")
        case (_?, _?): throw CLIError.usage("--public-key and --key cannot be given together")
        }
        let request = CertificateSigning.Request(subject: subject, role: role, identity: identity, principals: principals,
                                                 window: window, options: options, output: output)
        let signed = try CertificateSigning.sign(request, authority: name, workspace: inv.workspace)
        let issued = signed.issued
        if inv.json {
            inv.printJSON(CAPresentation.json(issued, ca: signed.authority.name, revocation: nil, output: output))
        } else {
            let kind = role == .user ? "user" : "host"
            inv.note("Signed \(kind) certificate serial \(issued.serial) for '\(identity)' (\(principals.joined(separator: ","))), valid \(CertificateValidity.text(window.after)) to \(CertificateValidity.text(window.before)).")
            if let output { inv.note("Wrote '\(output)'.") } else { inv.print("\(signed.line)") }
        }
    }

    static func presented(_ error: CertificateOptionError) -> CLIError {
        let hint = "Use ssh-keygen -O's names: clear, no-pty, permit-pty, force-command=CMD, source-address=CIDR, verify-required, extension:NAME[=VALUE] ..."
        switch error {
        case .unknown(let o): return CLIError.usage("'\(o)' is not a certificate option", hint: hint)
        case .emptyValue(let n): return CLIError.usage("the certificate option \(n) needs a value")
        case .repeated(let n): return CLIError.usage("the certificate option \(n) is given twice")
        case .badSourceAddress(let v): return CLIError.usage("source-address '\(v)' is not a list of addresses", hint: "Give addresses or CIDR blocks separated by commas, e.g. 10.0.0.0/8,192.0.2.1.")
        }
    }
}
