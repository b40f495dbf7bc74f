// `hostbook import-tailscale`: hosts and pre-trusted host keys from a Tailscale status or
// API device list (docs/formats.md, "Tailscale JSON"; docs/tailscale.md).
import CommandLineKit
import HostStore
import ImportFormats
import Workflows

enum ImportTailscaleCommand {
    static let all: [CommandSpec] = [
        CommandSpec(
            ["import-tailscale"], changesHostsOrKeys: true,
            summary: "Import hosts and their SSH host keys from Tailscale",
            usage: "[FILE | -] (--all | --only NAME,...) [--user U] [--tag T]... [--online] [--dry-run] [--no-host-keys] [--rename-clashes] [--include-skipped]",
            discussion: """
            Reads the output of 'tailscale status --json' (run for you when no FILE is given) or
            the API v2 device list ({"devices": [...]}). Each device becomes a host named after the
            first label of its MagicDNS name; re-importing matches devices by node ID and updates
            them, keeping names, users, keys and notes you changed. SSH host keys that Tailscale
            advertises are trusted for the tailnet's MagicDNS name and each Tailscale IP (never for
            another name or address); a key that differs from the one the last import trusted is
            recorded as a rotation.
            Skipped unless named with --only or --include-skipped is given: this machine, nodes
            shared in from other tailnets, location exit nodes, unauthorized devices and devices
            that block incoming connections.
            """,
            positionals: [.optional("FILE", "A status or device-list JSON file, or - for standard input", completes: .files)],
            options: [
                .flag(.all, "Import every device"),
                .value(.only, "NAME,...", "Import only these devices (alias, MagicDNS name or node ID)"),
                .value(.tag, "T", "Only devices with this Tailscale tag (tag:T or T); repeatable", repeatable: true),
                .flag(.online, "Only devices that are online"),
                .value(.user, "U", "SSH user for the imported hosts (kept where a host already has one)"),
                .flag(.dryRun, "Show what would be done; write nothing"),
                .flag(.noHostKeys, "Do not trust the devices' SSH host keys"),
                .flag(.renameClashes, "Import a device whose name is taken as NAME-2, NAME-3, ..."),
                .flag(.includeSkipped, "Also import devices skipped by default (shared-in, exit nodes, ...)"),
            ],
            run: run),
    ]

    static func run(_ inv: Invocation) throws {
        let args = inv.args
        try args.exclusive(.all, .only)
        let choice = try TailscaleDeviceChoice(all: args.flag(.all), only: args.value(.only), tags: args.values(.tag),
                                               onlineOnly: args.flag(.online), includeSkipped: args.flag(.includeSkipped))
        var options = TailscaleImportOptions()
        options.selection = choice.selection
        if let user = args.value(.user) {
            try HostValidation.user(user)
            options.sshUser = user
        }
        options.dryRun = args.flag(.dryRun)
        options.trustHostKeys = !args.flag(.noHostKeys)
        options.renameClashes = args.flag(.renameClashes)

        var document = try TailscaleInput.read(args.positional(0), environment: inv.environment)
        if let state = document.backendState, state != "Running" {
            inv.warn("the Tailscale status was taken while Tailscale was not running (BackendState \(state)); the device list may be incomplete or out of date")
        }
        guard var nodes = try devices(choice, document.nodes, inv) else {
            inv.note("Nothing selected; nothing imported.")
            return
        }
        // One copy only: the importer frees each device when done with it.
        document.nodes = []
        let database = try inv.workspace.database(dryRun: options.dryRun)
        let report: TailscaleImportReport
        let progress = inv.progress(options.dryRun ? "Planning the Tailscale import" : "Importing from Tailscale")
        do {
            defer { progress.finish() }
            report = try TailscaleImporter(database: database).run(format: document.format, tailnet: document.tailnet, nodes: &nodes, options: options) { done, total in
                progress.update(done: done, of: total, unit: "devices")
            }
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreErrorPresentation.cliError(e, doing: "the import failed and nothing was written")
        }
        let warnings = WarningSink(warn: inv.warn, one: "warning", many: "warnings")
        for line in TailscaleImportOutput.problemLines(report) + report.notes.map(\.line) { warnings.warn("\(line)") }
        warnings.finish()
        if inv.json {
            TailscaleImportJSON.write(report, reasons: report.keyProblems.map(\.reasonLine), notes: report.notes.map(\.line)) { inv.writeJSON($0) }
        } else {
            inv.write(TailscaleImportOutput.text(report, color: inv.useColor))
        }
    }

    /// The devices to hand to the importer, or nil when the user was offered devices and
    /// chose none.
    static func devices(_ choice: TailscaleDeviceChoice, _ nodes: [TailscaleNode], _ inv: Invocation) throws -> [TailscaleNode]? {
        guard case .offering(let offered) = try choice.devices(nodes) else { return nodes }
        try inv.requirePrompt(for: "a choice of Tailscale devices to import", alternative: "--all or --only NAME,...")
        inv.note("Tailscale devices:")
        for (i, node) in offered.enumerated() {
            let m = TailscaleHostMapping(node)
            let state = node.online == true ? "online" : node.online == false ? "offline" : ""
            let details = [m.address, node.os, state].filter { !$0.isEmpty }.joined(separator: ", ")
            inv.note("  \(i + 1)) \(m.displayAlias)  (\(details))")
        }
        let answer = try inv.ask("Import which? Numbers such as 1,3-5, or 'all' (empty for none): ",
                                 alternative: "--all or --only NAME,...")
        let chosen = try TailscaleDeviceChoice.parseChoice(answer, count: offered.count)
        return chosen.isEmpty ? nil : chosen.map { offered[$0] }
    }
}
