// `hostbook show NAME`: one host's fields, aligned, or one JSON object.
import CommandLineKit
import HostStore
import Workflows

enum HostShow {
    static let spec = CommandSpec(
        ["show"], summary: "Show a host",
        positionals: [.required("NAME", "The host to show", completes: SavedNames.hosts)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let host = try HostEditing.existing(name, in: inv.workspace)
        let userOmitted = try HostEditing.userOmitted(host, in: inv.workspace)
        if inv.json {
            inv.printJSON(HostJSON.host(host, userOmitted: userOmitted))
        } else {
            inv.write(HostOutput.text(host, userOmitted: userOmitted))
        }
    }
}
