// `hostbook known-hosts rotation HOST [--port N] [--on | --off]`: whether a login through
// `hostbook ssh` learns the host's key rotation (docs/known-hosts.md, "Rotation"); the rules
// are HostKeyRotation's, the switch is stored per host name and port.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KnownHostsRotation {
    static let spec = CommandSpec(
        ["known-hosts", "rotation"], summary: "Turn host-key rotation on or off for a host",
        usage: "HOST [--port N] [--on | --off]",
        discussion: """
        After a login through 'hostbook ssh' with a key already trusted for the host, the keys \
        the server proves it holds are trusted and those it no longer offers are retired, as \
        OpenSSH's UpdateHostKeys does (each change is in 'known-hosts history', source \
        rotation). --off stops that for HOST at that port, --on allows it again; without \
        either, prints whether it is on. HOST may be a saved host's name ([HOST]:PORT and \
        --port as for 'known-hosts check'); --off refuses a name that is neither a saved host \
        nor in the known hosts (exit 4).
        """,
        positionals: [.required("HOST", "Host name or address, [HOST]:PORT, or a saved host's name", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption, .flag(.on, "Learn the host's key rotation (the default)"),
                  .flag(.off, "Never learn the host's key rotation")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let on = inv.args.flag(.on), off = inv.args.flag(.off)
        if on && off { throw CLIError.usage("--on and --off cannot be given together") }
        let resolved = try KnownHostsAccess.resolving(inv, host: inv.args.positional(0) ?? "")
        let lookup = resolved.lookup
        let state: Bool
        var changed = false
        if on || off {
            changed = try HostStoreErrorPresentation.mapping {
                try HostKeyRotationSwitch.set(lookup, on: on, savedHost: resolved.saved, in: inv.workspace)
            }
            state = on
        } else {
            state = try HostStoreErrorPresentation.mapping { try HostKeyRotationSwitch.isOn(lookup, in: inv.workspace) }
        }
        if inv.json {
            inv.printJSON(.object([("host", .string(lookup.host)), ("port", .int(lookup.port)),
                                   ("rotation", .string(state ? "on" : "off")), ("changed", .bool(changed))]))
            return
        }
        let name = KnownHostsAccess.describe(lookup)
        if !(on || off) {
            inv.print("Host-key rotation is \(state ? "on" : "off") for \(name).")
        } else {
            inv.print(changed ? "Host-key rotation is now \(state ? "on" : "off") for \(name)."
                              : "Host-key rotation was already \(state ? "on" : "off") for \(name).")
        }
    }
}
