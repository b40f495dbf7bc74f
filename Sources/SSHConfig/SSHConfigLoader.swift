// Reads a configuration and every file it includes into sections (readconf.c
// read_config_file_depth and the Include keyword; docs/openssh-behaviour.md, "ssh_config"):
//
// - a `Host` or `Match` line starts a section; there is no nesting and no end marker;
// - `Include` takes several paths, each a glob pattern; a relative one is taken from
//   `~/.ssh/`; no match is no error; the files are read in the order the glob gives, and
//   their lines apply under the condition of the block holding the Include (whose state
//   comes back after each file);
// - more than 16 nested levels is an error, as in ssh.
//
// ssh bounds nothing else, so 17 files each including the next four times are 4^16 file
// loads (an import grew to 480 MB in 30 s). The loader bounds the whole load
// (SSHConfigLoadLimits): the files processed, each Include of a file counting again, and
// their bytes and lines; past a bound the load stops with `.tooLarge`. A file included
// several times is read once and its directives processed each time, as ssh applies them.
// Resolving every host checks it against each block that may apply (its own Host blocks and
// every block with a pattern or a Match), which is quadratic in a file of many hosts and
// many patterns: that count is bounded too.
//
// The loader does no I/O itself: the caller hands in `read` and `glob`.

public struct SSHConfigFileAccess {
    /// The bytes of a file, or an error whose description says why not.
    public var read: (String) throws -> [UInt8]
    /// The paths matching a pattern, in the order ssh reads them (glob(3) with
    /// GLOB_TILDE: `~` and `~user` expanded, sorted); empty when nothing matches.
    public var glob: (String) throws -> [String]

    public init(read: @escaping (String) throws -> [UInt8], glob: @escaping (String) throws -> [String]) {
        self.read = read
        self.glob = glob
    }
}

/// What must hold for a section to apply: its `Host` or `Match` line, after those of the
/// blocks holding the Includes that led to it.
public enum SSHConfigCondition: Sendable, Equatable {
    case host(patterns: [String], file: String, line: Int)
    case match(SSHConfigMatch, file: String, line: Int)
}

public struct SSHConfigSection: Sendable {
    public let conditions: [SSHConfigCondition]
    public var directives: [SSHConfigDirective]
}

/// A concrete name from a Host line: no wildcard and no negation.
public struct SSHConfigAlias: Sendable, Equatable {
    public let name: String
    public let file: String
    public let line: Int
}

/// A configuration read with all its Includes.
public struct SSHConfiguration: Sendable {
    public internal(set) var sections: [SSHConfigSection] = []
    /// Every concrete Host name, in the order it first appears.
    public internal(set) var aliases: [SSHConfigAlias] = []
    /// Every file read, in the order first read (a file included again is not repeated).
    public internal(set) var files: [String] = []
    /// Include patterns that matched no file (ssh skips them silently): file, line, pattern.
    public internal(set) var unmatchedIncludes: [(file: String, line: Int, pattern: String)] = []
    /// Every Match line (file, line, the line's arguments).
    public internal(set) var matchLines: [(file: String, line: Int, text: String)] = []

    /// Sections that can apply only to the names listed (a Host line with no wildcard in
    /// its positive patterns), and the rest, which must be checked for every name.
    var byName: [String: [Int]] = [:]
    var unindexed: [Int] = []
}

/// The most one load processes. Every time a file is processed counts: a file included
/// from four places counts four times, with its bytes and lines, as that is the work.
public struct SSHConfigLoadLimits: Sendable, Equatable {
    public var files: Int
    public var bytes: Int
    public var lines: Int
    /// Checks of a block against a host that resolving every concrete host takes
    /// (`SSHConfiguration.resolutionChecks`).
    public var checks: Int

    public init(files: Int, bytes: Int, lines: Int, checks: Int = SSHConfigLoadLimits.standard.checks) {
        self.files = files
        self.bytes = bytes
        self.lines = lines
        self.checks = checks
    }

    /// Far beyond any hand-written configuration (a few files of a few KiB, hundreds of
    /// hosts, tens of pattern blocks), and small enough that a load and the resolution of
    /// its hosts stay within seconds and tens of MB.
    public static let standard = SSHConfigLoadLimits(files: 4096, bytes: 16 << 20, lines: 250_000, checks: 2_000_000)
}

public enum SSHConfigLoader {
    /// readconf.c READCONF_MAX_DEPTH.
    public static let maxIncludeDepth = 16

    /// What a load has done so far, and each file read (by path, as Include found it).
    struct LoadState {
        let root: String
        let limits: SSHConfigLoadLimits
        var files = 0, bytes = 0, lines = 0
        var documents: [String: (document: SSHConfigDocument, bytes: Int)] = [:]
        var seenAliases: Set<String> = []

        /// Counts `bytes` and `lines` more against the limits.
        mutating func count(bytes: Int, lines: Int) throws(SSHConfigError) {
            self.bytes += bytes
            self.lines += lines
            let over: String
            if self.bytes > limits.bytes {
                over = "more than " + (limits.bytes >= 1 << 20 ? "\(limits.bytes >> 20) MiB" : "\(limits.bytes) bytes")
            } else if self.lines > limits.lines {
                over = "more than \(limits.lines) lines"
            } else {
                return
            }
            throw SSHConfigError(.tooLarge, file: root, line: 0,
                                 "with its Includes it is \(over) (a file included several times counts each time)")
        }
    }

    /// Reads `path` (the `-F` file or `~/.ssh/config`) and what it includes, within `limits`.
    public static func load(_ path: String, access: SSHConfigFileAccess,
                            limits: SSHConfigLoadLimits = .standard) throws(SSHConfigError) -> SSHConfiguration {
        var config = SSHConfiguration()
        var state = LoadState(root: path, limits: limits)
        try loadFile(path, depth: 0, outer: [], access: access, into: &config, state: &state)
        config.buildIndex()
        let checks = config.resolutionChecks
        guard checks <= limits.checks else {
            throw SSHConfigError(.tooLarge, file: path, line: 0,
                                 "resolving its \(config.aliases.count) hosts against its \(config.sections.count) blocks is more than \(limits.checks) checks (\(checks))")
        }
        return config
    }

    static func loadFile(_ path: String, depth: Int, outer: [SSHConfigCondition], access: SSHConfigFileAccess,
                         into config: inout SSHConfiguration, state: inout LoadState) throws(SSHConfigError) {
        guard depth <= maxIncludeDepth else {
            throw SSHConfigError(.includeDepth, file: path, line: 0, "Too many recursive configuration includes (more than \(maxIncludeDepth) levels; an Include cycle?)")
        }
        state.files += 1
        guard state.files <= state.limits.files else {
            throw SSHConfigError(.tooLarge, file: state.root, line: 0,
                                 "with its Includes it is more than \(state.limits.files) files (a file included several times counts each time)")
        }
        let document: SSHConfigDocument
        if let read = state.documents[path] {
            document = read.document
            try state.count(bytes: read.bytes, lines: document.lineCount)
        } else {
            let bytes: [UInt8]
            do { bytes = try access.read(path) } catch {
                throw SSHConfigError(.unreadable, file: path, line: 0, "cannot be read: \(error)")
            }
            // The bytes count before they are split: a file past the bound is refused
            // without its lines being built.
            try state.count(bytes: bytes.count, lines: 0)
            config.files.append(path)
            document = try SSHConfigDocument(file: path, bytes: bytes)
            try state.count(bytes: 0, lines: document.lineCount)
            state.documents[path] = (document, bytes.count)
        }
        var conditions = outer
        var current = SSHConfigSection(conditions: conditions, directives: [])
        func flush() {
            if !current.directives.isEmpty || current.conditions != outer { config.sections.append(current) }
        }
        for d in document.directives {
            switch d.keyword {
            case "host":
                for p in d.arguments where p.isEmpty {
                    throw SSHConfigError(.syntax, file: path, line: d.lineNumber, "keyword host empty argument")
                }
                flush()
                conditions = outer + [.host(patterns: d.arguments, file: path, line: d.lineNumber)]
                current = SSHConfigSection(conditions: conditions, directives: [])
                for p in d.arguments where HostPatternMatch.isConcrete(p) && state.seenAliases.insert(p).inserted {
                    config.aliases.append(SSHConfigAlias(name: p, file: path, line: d.lineNumber))
                }
            case "match":
                let match: SSHConfigMatch
                do { match = try SSHConfigMatch(rest: d.line.rest) } catch {
                    throw SSHConfigError(.syntax, file: path, line: d.lineNumber, error.text)
                }
                flush()
                conditions = outer + [.match(match, file: path, line: d.lineNumber)]
                current = SSHConfigSection(conditions: conditions, directives: [])
                config.matchLines.append((path, d.lineNumber, d.line.rest))
            case "include":
                flush()
                current = SSHConfigSection(conditions: conditions, directives: [])
                for argument in d.arguments {
                    guard !argument.isEmpty else {
                        throw SSHConfigError(.syntax, file: path, line: d.lineNumber, "keyword include empty argument")
                    }
                    let pattern = argument.hasPrefix("/") || argument.hasPrefix("~") ? argument : "~/.ssh/" + argument
                    let matches: [String]
                    do { matches = try access.glob(pattern) } catch {
                        throw SSHConfigError(.syntax, file: path, line: d.lineNumber, "glob failed for \(pattern): \(error)")
                    }
                    if matches.isEmpty { config.unmatchedIncludes.append((path, d.lineNumber, pattern)) }
                    for file in matches {
                        try loadFile(file, depth: depth + 1, outer: conditions, access: access, into: &config, state: &state)
                    }
                }
            default:
                try SSHConfigKeywordRules.check(d)
                current.directives.append(d)
            }
        }
        flush()
    }
}

extension SSHConfiguration {
    mutating func buildIndex() {
        byName = [:]
        unindexed = []
        for (i, section) in sections.enumerated() {
            var names: [String]?
            for case .host(let patterns, _, _) in section.conditions {
                let positive = patterns.filter { !$0.hasPrefix("!") }
                if positive.allSatisfy(HostPatternMatch.isConcrete) { names = positive; break }
            }
            if let names {
                for n in Set(names) { byName[n, default: []].append(i) }
            } else {
                unindexed.append(i)
            }
        }
    }

    /// How many sections resolving every alias looks at: each one's own sections and every
    /// section that is not indexed by name.
    public var resolutionChecks: Int {
        var checks = aliases.count * unindexed.count
        for alias in aliases { checks += byName[alias.name]?.count ?? 0 }
        return checks
    }

    /// The sections that may apply to `name`, in file order.
    func candidateSections(for name: String) -> [Int] {
        let named = byName[name] ?? []
        if named.isEmpty { return unindexed }
        if unindexed.isEmpty { return named }
        var out: [Int] = []
        out.reserveCapacity(named.count + unindexed.count)
        var a = 0, b = 0
        while a < named.count || b < unindexed.count {
            if b == unindexed.count || (a < named.count && named[a] < unindexed[b]) {
                out.append(named[a]); a += 1
            } else {
                out.append(unindexed[b]); b += 1
            }
        }
        return out
    }
}
