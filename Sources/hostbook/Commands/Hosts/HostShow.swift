// `hostbook show NAME`: one host's fields, aligned, or one JSON object.
import HostStore
import Workflows

enum HostShow {
    static let spec = CommandSpec(
        ["show"], summary: "Show a host",
        positionals: [.required("NAME", "The host to show", completes: .hosts)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let host = try HostEditing.existing(name, in: inv.workspace)
        let userOmitted = try inv.workspace.existingDatabase().map { try BundleStore(database: $0).userPublishing(hostID: host.id) == .omit } ?? false
        if inv.json {
            inv.printJSON(HostJSON.host(host, userOmitted: userOmitted))
        } else {
            inv.write(HostOutput.text(host, userOmitted: userOmitted))
        }
    }
}
