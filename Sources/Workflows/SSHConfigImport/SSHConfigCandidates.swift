// From a resolved configuration to what the importer takes: for each concrete Host alias,
// the settings `ssh -G` would give, the IdentityFiles with their public halves, and one line
// for everything hostbook does not keep and the user's own file no longer gives it (other
// options of the host's own blocks, undecided Match blocks, a ProxyJump chain); a host reached through a ProxyCommand is skipped, with the reason. File-wide notes say what a Host pattern or a Match line
// means for the import (SSHConfigFileNote, worded by the executable).
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import Sessions
import SSHConfig

public struct SSHConfigCandidates {
    let files: SSHConfigFiles
    let environment: [String: String]
    let identityKeys = SSHConfigIdentityKeys.Cache()
    let localUser = SSHConfigIdentityKeys.localUser
    let localHostName = SSHConfigIdentityKeys.localHostName

    public init(files: SSHConfigFiles, environment: [String: String]) {
        self.files = files
        self.environment = environment
    }

    public func candidates(_ config: SSHConfiguration) -> [SSHConfigCandidate] {
        let resolver = SSHConfigResolver(configuration: config, localUser: localUser)
        return Self.mergingAliases(config.aliases.map { candidate(resolver.resolve($0.name), $0) })
    }

    /// `Host devbox dev`: a later name of the same Host line that resolves to exactly the
    /// same host (HostName, Port, User, ProxyJump, IdentityFiles) as an earlier one becomes
    /// that host's alias. Names that resolve differently (`HostName %h.example.com`, or
    /// another block for one of them) stay hosts of their own, as ssh treats them.
    public static func mergingAliases(_ all: [SSHConfigCandidate]) -> [SSHConfigCandidate] {
        var out: [SSHConfigCandidate] = []
        for c in all {
            if c.skipReason == nil, let i = out.firstIndex(where: { h in
                h.skipReason == nil && h.sourceFile == c.sourceFile && h.sourceLine == c.sourceLine && h.hostname == c.hostname
                    && h.port == c.port && h.user == c.user && h.jump == c.jump && h.identities == c.identities
            }) {
                out[i].aliases.append(c.alias)
                continue
            }
            out.append(c)
        }
        return out
    }

    func candidate(_ r: SSHResolvedHost, _ alias: SSHConfigAlias) -> SSHConfigCandidate {
        var c = SSHConfigCandidate(alias: alias.name, hostname: r.hostName ?? alias.name, port: r.port ?? 22, user: r.user,
                                   sourceFile: alias.file, sourceLine: alias.line)
        if let problem = r.hostNameProblem { c.skipReason = problem }
        if let loop = r.jumpLoop { c.skipReason = "ssh refuses this host: its ProxyJump leads back to it (jumphost loop via \(loop))" }
        if let spec = r.proxyJump {
            switch SSHConfigValues.jumpHops(spec) {
            case let hops? where hops.count == 1:
                c.jump = .hop(host: hops[0].host, user: hops[0].user, port: hops[0].port, text: spec)
            case let hops? where hops.count > 1:
                c.jump = .unrepresentable(text: spec, reason: "a chain of \(hops.count) jump hosts; hostbook keeps one jump host per host")
            default:
                c.jump = .none
            }
        }
        // A host reached through a ProxyCommand is skipped, not imported without it: hostbook
        // would connect to it directly (`hostbook ssh`, the installed configuration, as a jump
        // host), which is another path than ssh's, and works only while the user's own file
        // still supplies the command (docs/command-line.md, "import-ssh-config").
        if let command = r.proxyCommand, HostPatternMatch.lowercased(command) != "none", c.skipReason == nil {
            c.skipReason = "it is reached through 'ProxyCommand \(command)', which hostbook does not run (without it hostbook would connect directly)"
            c.skipRemedy = .proxyJumpOrAddWithJump(name: alias.name)
        }
        for path in r.identityFiles {
            guard HostPatternMatch.lowercased(path) != "none" else { continue }
            switch expandIdentityFile(path, r) {
            case .success(let expanded):
                let half = identityKeys.publicHalf(expanded)
                var identity = SSHConfigIdentity(path: path, fingerprint: half.fingerprint, problem: half.problem)
                identity.remedy = half.remedy
                c.identities.append(identity)
            case .failure(let why):
                c.identities.append(SSHConfigIdentity(path: path, fingerprint: nil, problem: why.text))
            }
        }
        // A setting the user's own `Host *` (or another block not the host's own) supplies
        // still reaches ssh from their file, whatever hostbook keeps: nothing is lost.
        for o in r.otherOptions where !o.fromSharedBlock {
            c.notImported.append("\(o.keyword) \(o.value) (\(o.file) line \(o.line)): hostbook does not keep this option")
        }
        for m in r.undecidedMatches {
            c.notImported.append("Match \(m.attribute.rawValue) (\(m.file) line \(m.line)): not evaluated by hostbook, so its settings were not applied")
        }
        return c
    }

    struct ExpansionProblem: Error { let text: String }

    /// IdentityFile as ssh expands it when connecting (ssh.c): `~/`, `${VAR}`, then the
    /// connection tokens hostbook knows.
    func expandIdentityFile(_ path: String, _ r: SSHResolvedHost) -> Result<String, ExpansionProblem> {
        var p = path
        if p == "~" || p.hasPrefix("~/") {
            p = files.home + p.dropFirst()
        } else if p.hasPrefix("~") {
            return .failure(ExpansionProblem(text: "hostbook does not expand ~user paths"))
        }
        if p.contains("${") {
            switch expandVariables(p) {
            case .success(let s): p = s
            case .failure(let f): return .failure(f)
            }
        }
        let host = r.hostName ?? r.alias
        let short = localHostName.split(separator: ".").first.map(String.init) ?? localHostName
        let values: [Character: String] = [
            "d": files.home, "u": localUser, "i": String(getuid()), "h": host, "n": r.alias,
            "p": String(r.port ?? 22), "r": r.user ?? localUser, "l": short, "L": short, "k": r.alias,
        ]
        do {
            return .success(try SSHConfigTokens.expand(p, values))
        } catch {
            return .failure(ExpansionProblem(text: "the token %\(error.token) is not one hostbook expands"))
        }
    }

    /// `${NAME}` from the environment (an unset one is an error in ssh too).
    func expandVariables(_ s: String) -> Result<String, ExpansionProblem> {
        var out = ""
        var rest = Substring(s)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            guard after.hasPrefix("{") else { out += "$"; rest = after; continue }
            guard let close = after.firstIndex(of: "}") else {
                return .failure(ExpansionProblem(text: "an unterminated ${ in the path"))
            }
            let name = String(after[after.index(after: after.startIndex)..<close])
            guard let value = environment[name] else {
                return .failure(ExpansionProblem(text: "the environment variable \(name) is not set"))
            }
            out += value
            rest = after[after.index(after: close)...]
        }
        return .success(out + rest)
    }

    /// File-wide notes: Host patterns and Match lines are rules, which hostbook does not keep.
    public static func notes(_ config: SSHConfiguration, files: SSHConfigFiles) -> [SSHConfigFileNote] {
        var notes: [SSHConfigFileNote] = []
        var seen: Set<String> = []
        for section in config.sections {
            for case .host(let patterns, let file, let line) in section.conditions
            where !patterns.allSatisfy(HostPatternMatch.isConcrete) && !section.directives.isEmpty {
                guard seen.insert("\(file):\(line)").inserted else { continue }
                notes.append(.hostPattern(patterns: patterns, file: file, line: line))
            }
        }
        for m in config.matchLines { notes.append(.matchLine(text: m.text, file: m.file, line: m.line)) }
        for i in config.unmatchedIncludes { notes.append(.unmatchedInclude(pattern: i.pattern, file: i.file, line: i.line)) }
        for p in files.permissionProblems { notes.append(.permissions(path: p.path, reason: p.reason)) }
        if !files.excluded.isEmpty { notes.append(.hostbookOwnConfiguration(files: files.excluded)) }
        return notes
    }
}
