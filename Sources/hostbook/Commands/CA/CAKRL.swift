// `hostbook ca krl NAME [--output FILE]`: the CA's key revocation list in OpenSSH's binary
// format (PROTOCOL.krl), for sshd_config `RevokedKeys` and `ssh-keygen -Q`.
import CommandLineKit
import Workflows
import KeyFormats
import System

enum CAKRL {
    static let spec = CommandSpec(
        ["ca", "krl"],
        summary: "Write a certificate authority's key revocation list (OpenSSH KRL)",
        usage: "NAME [--output FILE]",
        discussion: """
        The list holds every serial, key id and key the CA revoked ('hostbook ca revoke'), in
        the binary format sshd's RevokedKeys and 'ssh-keygen -Q -f FILE KEY' read. --output
        replaces FILE atomically (mode 0644); without it the list goes to standard output,
        which must not be a terminal. With --json (and --output) a summary is printed.
        """,
        positionals: [.required("NAME", "The certificate authority")],
        options: [.value(.output, "FILE", "Write the KRL to FILE")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let output = inv.args.value(.output)
        if output == nil {
            if inv.json { throw CLIError.usage("--json needs --output FILE: the KRL itself is binary") }
            if inv.stdoutIsTerminal {
                throw CLIError.rejected("refusing to write a binary KRL to the terminal", hint: "Use --output FILE, or redirect standard output to a file.")
            }
        }
        let (ca, krl) = try AuthorityRevocations.list(authority: inv.args.positional(0)!, workspace: inv.workspace)
        let bytes = krl.encoded()
        if let output {
            try AuthorityRevocations.write(bytes, to: output)
        } else {
            do { try FileDescriptor.standardOutput.writeAll(bytes) } catch {
                throw CLIError.failure("cannot write to standard output: \(error)")
            }
        }
        let serials = krl.certificates.reduce(0) { $0 + $1.serials.count }
        let ids = krl.certificates.reduce(0) { $0 + $1.keyIDs.count }
        if inv.json {
            inv.printJSON(.object([("ca", .string(ca.name)), ("version", .int(Int(clamping: krl.version))), ("output", .optional(output)),
                                   ("serials", .int(serials)), ("key_ids", .int(ids)), ("keys", .int(krl.sha256Hashes.count))]))
        } else if let output {
            inv.note("Wrote the KRL of '\(ca.name)' (version \(krl.version): \(serials) serials, \(ids) key ids, \(krl.sha256Hashes.count) keys) to '\(output)'.")
        }
    }
}
