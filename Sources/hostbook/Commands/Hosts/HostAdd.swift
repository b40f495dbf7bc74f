// `hostbook add NAME --hostname H ...`: a new host; its password, if any, into the vault.
import CommandLineKit
import HostStore
import SecureMemory
import System
import Workflows

enum HostAdd {
    static let spec = CommandSpec(
        ["add"], changesHostsOrKeys: true, summary: "Add a host",
        usage: "NAME --hostname H [--port N] [--user U] [--tag T]... [--alias A]... [--key KEY] [--jump HOST] [--note TEXT] [--password-stdin]",
        discussion: """
        NAME is 1 to 64 letters, digits, '.', '_' or '-', unique regardless of case.
        An alias (--alias, repeatable) is another name for the host, by the same rule and
        unique among names and aliases: it works wherever the name does.
        The password is read from stdin (--password-stdin; a no-echo prompt when stdin is a
        terminal) and kept in the vault, never in the database. Authentication is derived:
        password when one is stored, key with --key, else the SSH agent.
        """,
        positionals: [.required("NAME", "The host's name in hostbook")],
        options: [
            .value(.hostname, "H", "DNS name, IPv4 or IPv6 address"),
            .value(.port, "N", "SSH port (default 22)"),
            .value(.user, "U", "Login name"),
            .value(.tag, "T", "A tag (repeatable)", repeatable: true),
            .value(.alias, "A", "Another name for the host (repeatable)", repeatable: true),
            .value(.key, "KEY", "Name of a key from 'hostbook keys list'"),
            .value(.jump, "HOST", "Name of the host to jump through"),
            .value(.note, "TEXT", "A one-line note"),
            .flag(.passwordStdin, "Read a password from stdin (prompts without echo on a terminal)"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let a = inv.args
        let name = a.positional(0)!
        guard let hostname = a.value(.hostname) else {
            throw CLIError.usage("missing --hostname for 'hostbook add'", hint: "Run 'hostbook add --help' for usage.")
        }
        var new = NewHost(name: name, hostname: hostname, user: a.value(.user), tags: a.values(.tag), key: a.value(.key),
                          jump: a.value(.jump), note: a.value(.note), aliases: a.values(.alias))
        if let port = try a.int(.port, in: TCPPort.range) { new.port = port }
        // Checked before asking for a password, so a typo does not cost a prompt.
        new = try HostEditing.checked(new)
        let password: SecretBytes? = a.flag(.passwordStdin) ? try HostPasswords.read(inv, hostName: name) : nil
        let host = try HostEditing.add(new, password: password, in: inv.workspace)
        if inv.json {
            inv.printJSON(HostJSON.host(host))
        } else {
            inv.print("Added host '\(host.name)' (\(HostOutput.target(host)), auth \(host.auth.rawValue)).")
        }
    }
}
