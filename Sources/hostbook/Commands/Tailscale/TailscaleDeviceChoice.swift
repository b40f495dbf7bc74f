// Which devices `import-tailscale` is about, read from the command line into a
// TailscaleSelection (HostStore), which the import's planner alone applies to every device;
// here only what needs the user: a --only name that no device answers to is an error, and
// without --all or --only the devices the import would plan are listed and the user picks.
import HostStore
import ImportFormats
import KeyFormats

struct TailscaleDeviceChoice {
    let selection: TailscaleSelection
    let all: Bool

    init(_ args: ParsedArguments) throws {
        try args.exclusive(.all, .only)
        let tags = args.values(.tag).map { $0.hasPrefix("tag:") ? $0 : "tag:" + $0 }
        if tags.contains("tag:") { throw CLIError.usage("--tag needs a tag name, e.g. --tag prod or --tag tag:prod") }
        var only: [String]?
        if let list = args.value(.only) {
            let names = list.split(separator: ",").map { String($0).trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw CLIError.usage("--only needs one or more device names separated by commas") }
            only = names
        }
        all = args.flag(.all)
        selection = TailscaleSelection(only: only, tags: tags, onlineOnly: args.flag(.online),
                                       includeSkipped: args.flag(.includeSkipped))
    }

    /// The devices to hand to the importer (it applies `selection` to them), or nil when the
    /// user was offered devices and chose none.
    func devices(_ nodes: [TailscaleNode], invocation: Invocation) throws -> [TailscaleNode]? {
        if selection.only != nil {
            if let missing = selection.firstMissingName(in: nodes) {
                throw CLIError.notFound("no Tailscale device named '\(PrintableText.quoted(missing))' in the input",
                                        hint: "Use the first label of its MagicDNS name (e.g. web01), its full name or its node ID.")
            }
            return nodes
        }
        if all { return nodes }
        let offered = nodes.filter { selection.decide($0) == .planned }
        if offered.isEmpty { return nodes }
        try invocation.requirePrompt(for: "a choice of Tailscale devices to import", alternative: "--all or --only NAME,...")
        invocation.note("Tailscale devices:")
        for (i, node) in offered.enumerated() {
            let m = TailscaleHostMapping(node)
            let state = node.online == true ? "online" : node.online == false ? "offline" : ""
            let details = [m.address, node.os, state].filter { !$0.isEmpty }.joined(separator: ", ")
            invocation.note("  \(i + 1)) \(m.displayAlias)  (\(details))")
        }
        let answer = try invocation.ask("Import which? Numbers such as 1,3-5, or 'all' (empty for none): ",
                                        alternative: "--all or --only NAME,...")
        let chosen = try Self.parseChoice(answer, count: offered.count)
        return chosen.isEmpty ? nil : chosen.map { offered[$0] }
    }

    /// "1,3-5" → [0, 2, 3, 4]; "all" → every index; "" → none.
    static func parseChoice(_ text: String, count: Int) throws -> [Int] {
        let t = text.lowercased()
        if t == "all" || t == "a" { return Array(0..<count) }
        var picked: [Int] = []
        for part in t.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let lo = Int(bounds[0]), let hi = Int(bounds.last!), lo >= 1, hi <= count, lo <= hi else {
                throw CLIError.usage("'\(part)' is not a device number or range from 1 to \(count)")
            }
            for i in lo...hi where !picked.contains(i - 1) { picked.append(i - 1) }
        }
        return picked
    }
}
