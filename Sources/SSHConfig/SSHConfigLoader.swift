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
    /// Every file read, in order.
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

public enum SSHConfigLoader {
    /// readconf.c READCONF_MAX_DEPTH.
    public static let maxIncludeDepth = 16

    /// Reads `path` (the `-F` file or `~/.ssh/config`) and what it includes.
    public static func load(_ path: String, access: SSHConfigFileAccess) throws(SSHConfigError) -> SSHConfiguration {
        var config = SSHConfiguration()
        var seenAliases: Set<String> = []
        try loadFile(path, depth: 0, outer: [], access: access, into: &config, seenAliases: &seenAliases)
        config.buildIndex()
        return config
    }

    static func loadFile(_ path: String, depth: Int, outer: [SSHConfigCondition], access: SSHConfigFileAccess,
                         into config: inout SSHConfiguration, seenAliases: inout Set<String>) throws(SSHConfigError) {
        guard depth <= maxIncludeDepth else {
            throw SSHConfigError(.includeDepth, file: path, line: 0, "Too many recursive configuration includes (more than \(maxIncludeDepth) levels; an Include cycle?)")
        }
        let bytes: [UInt8]
        do { bytes = try access.read(path) } catch {
            throw SSHConfigError(.unreadable, file: path, line: 0, "cannot be read: \(error)")
        }
        config.files.append(path)
        let document = try SSHConfigDocument(file: path, bytes: bytes)
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
                for p in d.arguments where HostPatternMatch.isConcrete(p) && seenAliases.insert(p).inserted {
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
                        try loadFile(file, depth: depth + 1, outer: conditions, access: access, into: &config, seenAliases: &seenAliases)
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
