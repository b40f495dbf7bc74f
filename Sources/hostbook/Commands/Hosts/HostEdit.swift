// `hostbook edit NAME ...`: change a host's fields, tags, key, jump host or password.
import CommandLineKit
import HostStore
import SecureMemory
import System
import Workflows

enum HostEdit {
    static let spec = CommandSpec(
        ["edit"], changesHostsOrKeys: true, summary: "Change a host",
        usage: "NAME [--rename NEW] [--hostname H] [--port N] [--user U | --no-user] [--tag T]... [--untag T]... [--alias A]... [--no-alias A]... [--key KEY | --no-key] [--jump HOST | --no-jump] [--note TEXT] [--password-stdin | --no-password] [--allow-agent-forwarding | --no-agent-forwarding] [--reset FIELD]... [--bundle-user omit|publish]",
        discussion: """
        Only what is given changes. --untag of a tag the host does not have is refused (exit 5). --password-stdin replaces the stored password (read from
        stdin, or a no-echo prompt on a terminal); --no-password deletes it from the vault.
        On a host a bundle brought, a changed user, key, port, note, tags or aliases is your own \
        (an override, shown by 'show'): bundle updates keep it. --reset FIELD (user, key, port, \
        note, tags, aliases; repeatable) returns it to the bundle's value.
        --bundle-user omit publishes the host without its user in every 'bundle export' (each \
        subscriber's default user applies); publish (the default) puts it back.
        """,
        positionals: [.required("NAME", "The host to change", completes: SavedNames.hosts)],
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
            .value(.bundleUser, "omit|publish", "Whether bundle exports publish the host's user"),
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
        c.port = try a.int(.port, in: TCPPort.range)
        c.user = a.value(.user)
        c.clearUser = a.flag(.noUser)
        c.addTags = a.values(.tag)
        c.removeTags = a.values(.untag)
        c.addAliases = a.values(.alias)
        c.removeAliases = a.values(.noAlias)
        c.key = a.value(.key).map { .set($0) } ?? (a.flag(.noKey) ? .clear : .unchanged)
        c.jump = a.value(.jump).map { .set($0) } ?? (a.flag(.noJump) ? .clear : .unchanged)
        c.note = a.value(.note)
        c.password = a.flag(.passwordStdin) ? .set : a.flag(.noPassword) ? .clear : .unchanged
        c.agentForwarding = a.flag(.allowAgentForwarding) ? true : a.flag(.noAgentForwarding) ? false : nil
        let edit = try HostEditing.edit(name, c, resets: a.values(.reset), userPublishing: a.value(.bundleUser), in: inv.workspace)
        let password: SecretBytes? = edit.needsPassword ? try HostPasswords.read(inv, hostName: name) : nil
        let host = try HostEditing.apply(edit, password: password, in: inv.workspace)
        if inv.json {
            inv.printJSON(HostJSON.host(host))
        } else {
            inv.print("Updated host '\(host.name)' (\(HostOutput.target(host)), auth \(host.auth.rawValue)).")
            if let userPublishing = edit.userPublishing {
                inv.print(userPublishing == .omit ? "Bundle exports publish it without its user." : "Bundle exports publish its user.")
            }
        }
    }
}
