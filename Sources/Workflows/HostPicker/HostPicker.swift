// The host picker of `hostbook ssh` with no HOST, as a pure value: the saved hosts, the
// filter typed so far, which hosts match it, which one is selected and which part of the
// list is in view. Keys go in, a decision comes out (stay, connect to a name, leave); no
// terminal, no drawing (the program's RawTerminal and HostPickerScreen do those), so a
// table test drives it completely. `entries(in:)` reads the saved hosts it offers.
import HostStore
import KeyFormats

public struct HostPicker {
    /// One saved host as the picker shows and filters it.
    public struct Entry: Equatable, Sendable {
        public let name: String
        /// `user@hostname:port` (`hostname:port` without a user; an IPv6 address in brackets).
        public let target: String
        public let tags: [String]
        /// Its other names (`hostbook alias`): matched as its name is, not drawn.
        public let aliases: [String]
        /// What the filter is matched against: name, aliases, target and tags, lowercased.
        public let haystack: String

        public init(name: String, target: String, tags: [String], aliases: [String] = []) {
            self.name = name
            self.target = target
            self.tags = tags
            self.aliases = aliases
            self.haystack = ([name] + aliases + [target] + tags).joined(separator: " ").lowercased()
        }

        public init(name: String, user: String?, hostname: String, port: Int, tags: [String], aliases: [String] = []) {
            let host = hostname.contains(":") ? "[" + hostname + "]" : hostname
            self.init(name: name, target: (user.map { $0 + "@" } ?? "") + host + ":" + String(port), tags: tags, aliases: aliases)
        }
    }

    /// What the picker does after a key.
    public enum Outcome: Equatable, Sendable {
        case stay
        /// Enter on a match: connect to this host, exactly as `hostbook ssh NAME`.
        case choose(String)
        /// Esc or Ctrl-C: leave without connecting.
        case leave
    }

    public let entries: [Entry]
    public private(set) var filter = ""
    /// Indices into `entries` of the hosts that match `filter`, in the saved order.
    public private(set) var matches: [Int]
    /// Index into `matches` of the selected host (0 when nothing matches).
    public private(set) var selected = 0
    /// Index into `matches` of the first row in view.
    public private(set) var top = 0

    public init(entries: [Entry]) {
        self.entries = entries
        self.matches = Array(entries.indices)
    }

    /// The selected host, nil when nothing matches.
    public var selection: Entry? { matches.isEmpty ? nil : entries[matches[selected]] }

    /// Whether `entry` matches `filter`: every word of the filter (split at spaces) occurs
    /// in its name, an alias, its target or tags, ignoring case. An empty filter matches everything.
    public static func matches(_ entry: Entry, filter: String) -> Bool {
        for word in filter.lowercased().split(separator: " ") where !entry.haystack.contains(word) { return false }
        return true
    }

    /// Applies one key. `page` is how many rows are in view (PageUp and PageDown move by it).
    public mutating func press(_ key: PickerKey, page: Int = 10) -> Outcome {
        switch key {
        case .text(let typed):
            // Controls and bidi overrides never enter the filter (PrintableText's rule).
            setFilter(filter + PrintableText.clean(typed))
        case .backspace:
            if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .deleteWord:
            var f = Substring(filter)
            while f.last == " " { f = f.dropLast() }
            while let l = f.last, l != " " { f = f.dropLast() }
            setFilter(String(f))
        case .clearFilter:
            setFilter("")
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .pageUp: move(by: -max(1, page))
        case .pageDown: move(by: max(1, page))
        case .first: move(by: -matches.count)
        case .last: move(by: matches.count)
        case .enter:
            if let s = selection { return .choose(s.name) }
        case .escape, .interrupt:
            return .leave
        }
        return .stay
    }

    /// The positions in `matches` shown in a window of `rows` rows, scrolled just enough
    /// that the selected host is in view.
    public mutating func window(rows: Int) -> Range<Int> {
        let rows = max(1, rows)
        if selected < top { top = selected }
        if selected >= top + rows { top = selected - rows + 1 }
        top = max(0, min(top, max(0, matches.count - rows)))
        return top..<min(matches.count, top + rows)
    }

    private mutating func setFilter(_ new: String) {
        filter = new
        matches = entries.indices.filter { Self.matches(entries[$0], filter: new) }
        selected = 0
        top = 0
    }

    private mutating func move(by delta: Int) {
        guard !matches.isEmpty else { return }
        selected = max(0, min(matches.count - 1, selected + delta))
    }

    /// The saved hosts the picker offers, in the saved order; none when there is no
    /// database yet (nothing is created).
    public static func entries(in workspace: Workspace) throws -> [Entry] {
        let hosts = try workspace.existingDatabase()?.hosts(tags: [], source: nil) ?? []
        return hosts.map { Entry(name: $0.name, user: $0.user, hostname: $0.hostname, port: $0.port, tags: $0.tags, aliases: $0.aliases) }
    }
}
