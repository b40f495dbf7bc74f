// Which devices `import-tailscale` imports: the filters (--tag, --online), then --all,
// --only NAME,..., or a numbered list and a question on the terminal.
import HostStore
import ImportFormats
import KeyFormats

struct TailscaleSelection {
    var tags: [String] = []
    var onlineOnly = false
    var all = false
    var only: [String]?

    init(_ args: ParsedArguments) throws {
        try args.exclusive("all", "only")
        tags = args.values("tag").map { $0.hasPrefix("tag:") ? $0 : "tag:" + $0 }
        if tags.contains("tag:") { throw CLIError.usage("--tag needs a tag name, e.g. --tag prod or --tag tag:prod") }
        onlineOnly = args.flag("online")
        all = args.flag("all")
        if let list = args.value("only") {
            let names = list.split(separator: ",").map { String($0).trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw CLIError.usage("--only needs one or more device names separated by commas") }
            only = names
        }
    }

    /// True when `node` passes --tag (any of them) and --online.
    func passesFilters(_ node: TailscaleNode) -> Bool {
        if onlineOnly && node.online != true { return false }
        if !tags.isEmpty && !node.tags.contains(where: { tags.contains($0) }) { return false }
        return true
    }

    /// The names a device answers to in --only, lower-cased: its alias (ASCII or decoded),
    /// MagicDNS name, OS hostname and node ID.
    static func names(_ node: TailscaleNode) -> [String] {
        let m = TailscaleHostMapping(node)
        return [m.alias, m.displayAlias.lowercased(), m.fqdn, node.hostName.lowercased(), node.nodeID.lowercased()]
    }

    /// The devices to hand to the importer. Devices named in --only are imported even when
    /// they would be skipped by default (the user asked for them by name).
    func select(_ nodes: [TailscaleNode], includeExcluded: Bool, invocation: Invocation) throws -> [TailscaleNode] {
        if let only {
            // One pass over the devices, whatever the number of names.
            let wanted = Set(only.map { $0.lowercased() })
            var found: Set<String> = []
            var picked: [TailscaleNode] = []
            for node in nodes {
                let hits = Self.names(node).filter { wanted.contains($0) }
                guard !hits.isEmpty else { continue }
                found.formUnion(hits)
                if passesFilters(node) {
                    var chosen = node
                    chosen.exclusion = nil
                    picked.append(chosen)
                }
            }
            if let missing = only.first(where: { !found.contains($0.lowercased()) }) {
                throw CLIError.notFound("no Tailscale device named '\(PrintableText.quoted(missing))' in the input",
                                        hint: "Use the first label of its MagicDNS name (e.g. web01), its full name or its node ID.")
            }
            return picked
        }
        let filtered = nodes.filter { passesFilters($0) }
        if all { return filtered }
        let offered = filtered.filter { $0.exclusion == nil || includeExcluded }
        if offered.isEmpty { return filtered }
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
        return chosen.map { offered[$0] }
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
