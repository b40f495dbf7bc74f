// How git reaches a bundle's repository over ssh (issue 33): when the repository's host is
// one hostbook knows (a saved host, by name, alias or hostname, or a host-name:port it
// holds trusted host keys for), git runs ssh with GIT_SSH_COMMAND set so that hostbook's
// trust core decides its host key (KnownHostsCommand, no known_hosts files,
// StrictHostKeyChecking yes: no second TOFU prompt for a key hostbook trusts) and
// hostbook's standing agent offers the keys (IdentityAgent), with BatchMode: ssh asks for
// nothing (no password prompt). A saved host also gives its hostname, port and user. For
// any other host (and for file, git and http(s) URLs) git runs the user's own ssh as before.
public import HostStore
import KeyFormats
import SSHConfig

public enum BundleGitSSH {
    /// The ssh destination of a git URL.
    public struct Target: Sendable, Equatable {
        public let user: String?
        public let host: String
        public let port: Int?

        public init(user: String?, host: String, port: Int?) {
            self.user = user
            self.host = host
            self.port = port
        }
    }

    /// The ssh destination of `url`: `ssh://[user@]host[:port]/path` (also `git+ssh://`,
    /// `ssh+git://`), or git's scp-like `[user@]host:path` (a colon before any slash); nil
    /// for every other URL or path.
    public static func target(of url: String) -> Target? {
        for scheme in ["ssh://", "git+ssh://", "ssh+git://"] where url.lowercased().hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            var authority = Substring(rest.prefix { $0 != "/" })
            var user: String?
            if let at = authority.lastIndex(of: "@") {
                user = String(authority[..<at])
                authority = authority[authority.index(after: at)...]
            }
            var host = authority
            var port: Int?
            if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                host = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if after.hasPrefix(":") { port = Int(after.dropFirst()) }
            } else if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                port = Int(authority[authority.index(after: colon)...])
            }
            guard !host.isEmpty else { return nil }
            return Target(user: user.flatMap { $0.isEmpty ? nil : $0 }, host: String(host), port: port)
        }
        if url.contains("://") { return nil }
        // scp-like: a colon before the first slash, and not a path (`./a:b`, `/a:b`).
        guard let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") else { return nil }
        var authority = url[..<colon]
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            user = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        if authority.hasPrefix("[") && authority.hasSuffix("]") { authority = authority.dropFirst().dropLast() }
        guard !authority.isEmpty else { return nil }
        return Target(user: user.flatMap { $0.isEmpty ? nil : $0 }, host: String(authority), port: nil)
    }

    /// The words of the ssh command git should run for `url` (GIT_SSH_COMMAND, each word to
    /// be quoted for sh), or nil when hostbook does not know its host. `hostbookPath` and
    /// `databasePath` make the KnownHostsCommand (SSHHostBlock); `agentSocket` is the
    /// standing agent's.
    public static func command(url: String, database: HostDatabase, hostbookPath: String, databasePath: String,
                               agentSocket: String) throws -> [String]? {
        guard let target = target(of: url) else { return nil }
        let saved = try database.host(named: target.host)
            ?? database.hosts().first { $0.hostname.lowercased() == target.host.lowercased() && (target.port == nil || $0.port == target.port) }
        var options: [String] = ["BatchMode yes"]
        if let saved {
            options.append("HostName " + (try SSHConfigWriter.quote(SSHConfigWriter.escapingPercent(saved.hostname), keyword: "HostName")))
            options.append("Port \(target.port ?? saved.port)")
            if target.user == nil, let user = saved.user { options.append("User " + (try SSHConfigWriter.quote(user, keyword: "User"))) }
        } else {
            let lookup = HostLookupName(host: HostPatternList.lowercased(target.host), port: target.port ?? HostLookupName.defaultPort)
            guard try !KnownHostsStore(database: database).knownKeyTypes(lookup).entries.isEmpty else { return nil }
        }
        options += try SSHHostBlock(hostbookPath: hostbookPath, databasePath: databasePath, noInput: true).hostKeyOptions()
        options.append("IdentityAgent " + (try SSHConfigWriter.quote(SSHConfigWriter.escapingPercent(agentSocket), keyword: "IdentityAgent")))
        return ["ssh"] + options.flatMap { ["-o", $0] }
    }
}
