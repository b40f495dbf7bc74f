// `hostbook edit NAME ...`: change a host's fields, tags, key, jump host or password.
import Credentials
import HostStore
import SecureMemory
import System

enum HostEdit {
    static let spec = CommandSpec(
        ["edit"], changesHostsOrKeys: true, summary: "Change a host",
        usage: "NAME [--rename NEW] [--hostname H] [--port N] [--user U | --no-user] [--tag T]... [--untag T]... [--alias A]... [--no-alias A]... [--key KEY | --no-key] [--jump HOST | --no-jump] [--note TEXT] [--password-stdin | --no-password] [--allow-agent-forwarding | --no-agent-forwarding] [--reset FIELD]...",
        discussion: """
        Only what is given changes. --untag of a tag the host does not have is refused (exit 5). --password-stdin replaces the stored password (read from
        stdin, or a no-echo prompt on a terminal); --no-password deletes it from the vault.
        On a host a bundle brought, a changed user, key, port, note, tags or aliases is your own \
        (an override, shown by 'show'): bundle updates keep it. --reset FIELD (user, key, port, \
        note, tags, aliases; repeatable) returns it to the bundle's value.
        """,
        positionals: [.required("NAME", "The host to change", completes: .hosts)],
        options: [
            .value(.rename, "NEW", "A new name"),
            .value(.hostname, "H", "DNS name, IPv4 or IPv6 address"),
            .value(.port, "N", "SSH port"),
            .value(.user, "U", "Login name"),
            .flag(.noUser, "Remove the login name (ssh's default user applies)"),
            .value(.tag, "T", "Add a tag (repeatable)", repeatable: true),
            .value(.untag, "T", "Remove a tag (repeatable)", repeatable: true),
            .value(.alias, "A", "Add another name for the host (repeatable)", repeatable: true),
            .value(.noAlias, "A", "Remove one of the host's aliases (repeatable)", repeatable: true),
            .value(.key, "KEY", "Use this key"),
            .flag(.noKey, "Use no key"),
            .value(.jump, "HOST", "Jump through this host"),
            .flag(.noJump, "Connect directly"),
            .value(.note, "TEXT", "A one-line note ('' clears it)"),
            .flag(.passwordStdin, "Replace the password, read from stdin"),
            .flag(.noPassword, "Delete the stored password"),
            .flag(.allowAgentForwarding, "Let the standing agent sign through an agent forwarded to this host (ssh -A)"),
            .flag(.noAgentForwarding, "Refuse signatures through an agent forwarded to this host (the default)"),
            .value(.reset, "FIELD", "Give a bundle host's field back to the bundle: user, key, port, note, tags, aliases", repeatable: true),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let a = inv.args
        try a.exclusive(.key, .noKey)
        try a.exclusive(.jump, .noJump)
        try a.exclusive(.passwordStdin, .noPassword)
        try a.exclusive(.user, .noUser)
        try a.exclusive(.allowAgentForwarding, .noAgentForwarding)
        let name = a.positional(0)!
        var c = HostChanges()
        c.rename = a.value(.rename)
        c.hostname = a.value(.hostname)
        if let p = try a.int(.port, in: TCPPort.range) { c.port = p }
        c.user = a.value(.user)
        c.clearUser = a.flag(.noUser)
        c.addTags = a.values(.tag)
        c.removeTags = a.values(.untag)
        c.addAliases = a.values(.alias)
        c.removeAliases = a.values(.noAlias)
        if let both = c.addTags.first(where: { t in c.removeTags.contains { $0.lowercased() == t.lowercased() } }) {
            throw CLIError.usage("--tag \(both) and --untag \(both) cannot be used together", hint: "Run 'hostbook edit --help' for usage.")
        }
        if let k = a.value(.key) { c.key = .set(k) } else if a.flag(.noKey) { c.key = .clear }
        if let j = a.value(.jump) { c.jump = .set(j) } else if a.flag(.noJump) { c.jump = .clear }
        if let n = a.value(.note) { c.note = n }
        if a.flag(.passwordStdin) { c.password = .set } else if a.flag(.noPassword) { c.password = .clear }
        if a.flag(.allowAgentForwarding) { c.agentForwarding = true } else if a.flag(.noAgentForwarding) { c.agentForwarding = false }
        let resets = try a.values(.reset).map { word in
            guard let f = BundleOverrideField(rawValue: word.lowercased()) else {
                throw CLIError.usage("--reset \(word): not a field a bundle host may override",
                                     hint: "Give one of: \(BundleOverrideField.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return f
        }
        if !resets.isEmpty {
            guard c.isEmpty else {
                throw CLIError.usage("--reset cannot be given with other changes", hint: "Reset first, then change what you need in a second 'hostbook edit'.")
            }
            guard let database = try HostStoreAccess.openForReading(inv) else { throw HostDatabase.noHost(name) }
            c = try database.resetChanges(host: name, fields: resets)
            if c.isEmpty {
                // The override holds the bundle's value already (a tag list in another order).
                c.note = try database.host(named: name)?.note ?? ""
            }
        }
        if c.isEmpty {
            throw CLIError.usage("nothing to change for host '\(name)'", hint: "Run 'hostbook edit --help' for the options.")
        }
        try HostDatabase.validate(c)
        // A host that does not exist is reported before any prompt, and creates no database.
        let database = try HostStoreAccess.openForReading(inv)
        guard try database?.host(named: name) != nil else {
            throw database?.noHost(name) ?? HostDatabase.noHost(name)
        }
        let password: SecretBytes? = c.password == .set ? try HostPasswords.read(inv, hostName: name) : nil

        let db = try HostStoreAccess.openForWriting(inv)
        let host = try CredentialStore(database: db).editHost(name, c, password: password).new
        if inv.json {
            inv.printJSON(HostOutput.json(host))
        } else {
            inv.print("Updated host '\(host.name)' (\(HostOutput.target(host)), auth \(host.auth.rawValue)).")
        }
    }
}
