// What `ssh -G ALIAS` resolves from a configuration (OpenSSH 9.2 readconf.c;
// docs/openssh-behaviour.md, "ssh_config"): the sections that apply, in file order, the first
// value of each keyword winning; IdentityFile accumulates (duplicates dropped); ProxyCommand
// and ProxyJump exclude each other, the first one given winning. HostName gets `%h` / `%%` and
// is then lower-cased unless it looks like an address; IdentityFile, ProxyJump and the rest are
// kept unexpanded, as `ssh -G` prints them.

/// A directive that applied to the host, beyond the ones hostbook keeps.
public struct SSHConfigApplied: Sendable, Equatable {
    public let keyword: String
    /// The value as written (after the keyword).
    public let value: String
    public let file: String
    public let line: Int
    /// Whether it came from a block that applies to more than the host's own names: one
    /// reached through a Host pattern or negation (`Host *`), a Match line, or before any
    /// Host line. Such a block stays in effect for the host when its own Host blocks go (an
    /// import, a take-over), so the setting still reaches ssh from the user's file.
    public var fromSharedBlock: Bool = false
}

public struct SSHResolvedHost: Sendable, Equatable {
    /// The name as typed (the Host pattern).
    public let alias: String
    /// HostName after `%h` and `%%`, in ssh's letter case; the alias when unset.
    /// Nil when the HostName holds a token ssh refuses (`hostNameProblem`).
    public var hostName: String?
    public var hostNameProblem: String?
    /// Nil when unset (ssh uses 22).
    public var port: Int?
    /// Nil when unset (ssh uses the local user).
    public var user: String?
    /// The ProxyJump value as `ssh -G` prints it: the hops before the last as written, the
    /// last one as `[user@]host[:port]`. Nil when unset or `none`.
    public var proxyJump: String?
    public var proxyCommand: String?
    /// As written, duplicates dropped, in order (ssh -G adds its defaults when empty).
    public var identityFiles: [String] = []
    /// The other directives that applied: the first of each keyword (every one for the
    /// keywords that accumulate).
    public var otherOptions: [SSHConfigApplied] = []
    /// Set when ssh refuses to connect: the last ProxyJump hop is the host itself (same
    /// name, port and user; ssh.c "jumphost loop via HOST").
    public var jumpLoop: String?
    /// Match lines whose outcome hostbook could not decide for this host (their settings
    /// are not applied).
    public var undecidedMatches: [SSHConfigUndecidedMatch] = []
}

/// A Match line hostbook did not decide for a host, and the criterion it stopped at.
public struct SSHConfigUndecidedMatch: Sendable, Equatable {
    public let file: String
    public let line: Int
    public let attribute: SSHConfigMatch.Attribute
}

public struct SSHConfigResolver {
    public let configuration: SSHConfiguration
    /// The local user name (for `Match user` with no User set, and `Match localuser`).
    public let localUser: String

    /// Keywords whose every value counts, not only the first (readconf.c).
    static let accumulating: Set<String> = [
        "localforward", "remoteforward", "dynamicforward", "certificatefile", "sendenv", "permitremoteopen",
    ]

    public init(configuration: SSHConfiguration, localUser: String) {
        self.configuration = configuration
        self.localUser = localUser
    }

    public func resolve(_ alias: String) -> SSHResolvedHost {
        var r = SSHResolvedHost(alias: alias)
        var rawHostName: String?
        var seenOther: Set<String> = []
        var seenIdentity: Set<String> = []
        var undecidedSeen: Set<MatchKey> = []
        var jumpDecided = false
        var decided: [MatchKey: SSHConfigMatch.Outcome] = [:]
        for index in configuration.candidateSections(for: alias) {
            let section = configuration.sections[index]
            var applies = true
            for condition in section.conditions {
                switch condition {
                case .host(let patterns, _, _):
                    if !HostPatternMatch.hostLineMatches(alias, patterns: patterns) { applies = false }
                case .match(let match, let file, let line):
                    // ssh decides a Match line once, when it reads it: the sections an Include
                    // in its block brings share that first decision.
                    let key = MatchKey(file: file, line: line)
                    let outcome = decided[key] ?? match.evaluate(originalHost: alias, hostName: rawHostName, user: r.user, localUser: localUser)
                    decided[key] = outcome
                    switch outcome {
                    case .matches: break
                    case .doesNotMatch: applies = false
                    case .undecided(let attribute):
                        applies = false
                        if undecidedSeen.insert(key).inserted {
                            r.undecidedMatches.append(SSHConfigUndecidedMatch(file: file, line: line, attribute: attribute))
                        }
                    }
                }
                if !applies { break }
            }
            guard applies else { continue }
            let shared = !section.conditions.allSatisfy {
                if case .host(let patterns, _, _) = $0 { patterns.allSatisfy(HostPatternMatch.isConcrete) } else { false }
            } || section.conditions.isEmpty
            for d in section.directives {
                switch d.keyword {
                case "hostname":
                    if rawHostName == nil { rawHostName = d.arguments[0] }
                case "port":
                    if r.port == nil { r.port = SSHConfigValues.port(d.arguments[0]) }
                case "user":
                    if r.user == nil { r.user = d.arguments[0] }
                case "identityfile":
                    if seenIdentity.insert(d.arguments[0]).inserted { r.identityFiles.append(d.arguments[0]) }
                case "proxyjump":
                    if !jumpDecided && r.proxyCommand == nil {
                        jumpDecided = true
                        // parse_jump compares the text before removing a comment with "none":
                        // `ProxyJump none # x` names a host called none.
                        if HostPatternMatch.lowercased(Self.commandText(d.line.rest)) != "none" {
                            r.proxyJump = SSHConfigValues.printedJump(SSHConfigValues.jumpSpec(d.line.rest))
                        }
                    }
                case "proxycommand":
                    if r.proxyCommand == nil && r.proxyJump == nil { r.proxyCommand = Self.commandText(d.line.rest) }
                default:
                    if Self.accumulating.contains(d.keyword) || seenOther.insert(d.keyword).inserted {
                        r.otherOptions.append(SSHConfigApplied(keyword: d.keyword, value: d.line.rest, file: d.file, line: d.lineNumber,
                                                               fromSharedBlock: shared))
                    }
                }
            }
        }
        do {
            r.hostName = SSHConfigTokens.canonicalCase(try SSHConfigTokens.expandHostName(rawHostName ?? alias, originalHost: alias))
        } catch {
            r.hostName = nil
            r.hostNameProblem = "HostName \(rawHostName ?? alias) has the token %\(error.token), which ssh refuses there (only %h and %% are allowed)"
        }
        if let spec = r.proxyJump, let hostName = r.hostName, let last = SSHConfigValues.jumpHops(spec)?.last {
            let user = r.user ?? localUser
            if last.host == hostName && (last.port ?? 22) == (r.port ?? 22) && (last.user ?? user) == user {
                r.jumpLoop = last.host
            }
        }
        return r
    }

    struct MatchKey: Hashable {
        let file: String
        let line: Int
    }

    /// readconf.c parse_command: the rest of the line after any whitespace and `=`.
    static func commandText(_ rest: String) -> String {
        var s = Substring(rest)
        while let f = s.first, f == " " || f == "\t" || f == "=" { s = s.dropFirst() }
        return String(s)
    }
}
