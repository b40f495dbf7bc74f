// The resolver checked against the real `ssh -G -F FILE ALIAS` (OpenSSH on this machine) for
// generated configurations: Host lists, wildcards and negation, Host *, Include with
// relative paths (taken from ~/.ssh) and globs, Include inside a Host block, Match
// host/originalhost/user/all, key=value, quotes, keyword case, comments and %h tokens.
// With -F ssh reads only that file, so HOME is a temporary folder.
import Foundation
import SSHConfig
import XCTest
import TestSupport

final class SSHConfigOracleTests: XCTestCase {
    /// One random configuration in `folder`: the main file's path and the aliases to ask about.
    func generate(_ r: inout SeededGenerator, in folder: ConfigFolder) throws -> (String, [String]) {
        let aliases = (0..<12).map { i in r.chance(15) ? "Host\(i)" : "h\(i)" } + ["web.example.com", "db.example.com"]
        func kw(_ k: String) -> String {
            switch r.int(4) {
            case 0: return k.lowercased()
            case 1: return k.uppercased()
            default: return k
            }
        }
        func sep() -> String { r.pick([" ", "\t", "=", " = ", "  "]) }
        func value(_ v: String) -> String {
            switch r.int(5) {
            case 0: return "\"\(v)\""
            case 1: return "'\(v)'"
            default: return v
            }
        }
        func settings(_ indent: String) -> String {
            var out = ""
            for _ in 0..<(1 + r.int(4)) {
                switch r.int(9) {
                case 0: out += indent + kw("HostName") + sep() + value(r.pick(["%h.example.net", "10.0.0.\(r.int(250) + 1)", "Mixed.Case.Example", "fe80::\(r.int(9) + 1)", "x%%y"])) + "\n"
                case 1: out += indent + kw("Port") + sep() + "\(r.pick([22, 2200, 2222, 65535, 1]))" + "\n"
                case 2: out += indent + kw("User") + sep() + value(r.pick(["alice", "bob", "deploy", "Carol"])) + "\n"
                case 3: out += indent + kw("ProxyJump") + sep() + r.pick(["j1", "bob@j2:2022", "j1,j2", "none", "ssh://u@j3", "j1,ssh://u@j3:2200/", "NONE"]) + r.pick(["", " # via"]) + "\n"
                case 4: out += indent + kw("IdentityFile") + sep() + r.pick(["~/.ssh/id_ed25519", "\"~/.ssh/key with space\"", "%d/.ssh/id_%h", "/tmp/k\\ x", "~/.ssh/id_ed25519"]) + "\n"
                case 5: out += indent + kw("ForwardAgent") + sep() + "no" + "\n"
                case 6: out += indent + kw("ProxyCommand") + " ssh -W %h:%p gw" + "\n"
                case 7: out += indent + "# a comment line\n"
                default: out += indent + kw("ServerAliveInterval") + sep() + "30" + "\n"
                }
            }
            return out
        }
        func hostLine() -> String {
            var patterns: [String] = []
            for _ in 0..<(1 + r.int(3)) {
                switch r.int(10) {
                case 0: patterns.append("h1*")
                case 1: patterns.append("*.example.com")
                case 2: patterns.append("!" + r.pick(aliases))
                case 3: patterns.append("h?")
                default: patterns.append(r.pick(aliases))
                }
            }
            return kw("Host") + sep() + patterns.joined(separator: " ") + "\n"
        }
        func matchLine() -> String {
            let criteria = r.pick(["host \(r.pick(["*.example.net", "10.0.0.*", "h1,h2", "!h3*"]))",
                                   "originalhost \(r.pick(["h1*", "WEB*", "*.example.com"]))",
                                   "user \(r.pick(["alice", "bob,deploy", ConfigFolder.localUser]))",
                                   "all", "!host h5", "host h2 user alice"])
            return kw("Match") + " " + criteria + "\n"
        }
        func block() -> String {
            switch r.int(10) {
            case 0: return matchLine() + settings("    ")
            case 1: return kw("Host") + " *\n" + settings("  ")
            default: return hostLine() + settings(r.pick(["", "  ", "\t"]))
            }
        }
        // Included files: conf.d/NN.conf (a glob), a nested include, one included from a Host block.
        let nIncludes = r.int(3)
        for i in 0..<nIncludes {
            var text = ""
            for _ in 0..<(1 + r.int(3)) { text += block() }
            if i == 0 && r.chance(50) { text += "Include nested/*.conf\n" }
            try folder.write("conf.d/\(String(format: "%02d", i)).conf", text)
        }
        try folder.write("nested/a.conf", hostLine() + settings("  "))
        try folder.write("inblock.conf", settings("") + hostLine() + settings(" "))
        var main = r.chance(50) ? settings("") : ""
        if nIncludes > 0 && r.chance(70) { main += kw("Include") + " conf.d/*.conf\n" }
        for _ in 0..<(3 + r.int(6)) {
            main += block()
            if r.chance(10) { main += "  Include inblock.conf\n" }
        }
        if r.chance(30) { main += "Include " + folder.ssh + "/nested/*.conf missing/*.conf\n" }
        if r.chance(60) { main += "Host *\n" + settings("  ") }
        let file = try folder.write("config", main)
        return (file, aliases)
    }

    static let defaultIdentityFiles = ["~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ecdsa_sk", "~/.ssh/id_ed25519",
                                       "~/.ssh/id_ed25519_sk", "~/.ssh/id_xmss", "~/.ssh/id_dsa"]

    func compare(_ resolved: SSHResolvedHost, sshLines: [String], context: String) {
        var got: [String: [String]] = [:]
        for line in sshLines {
            guard let space = line.firstIndex(of: " ") else { continue }
            got[String(line[..<space]), default: []].append(String(line[line.index(after: space)...]))
        }
        XCTAssertEqual(got["hostname"], [resolved.hostName ?? "?"], "hostname " + context)
        XCTAssertEqual(got["port"], ["\(resolved.port ?? 22)"], "port " + context)
        XCTAssertEqual(got["user"], [resolved.user ?? ConfigFolder.localUser], "user " + context)
        XCTAssertEqual(got["identityfile"] ?? [], resolved.identityFiles.isEmpty ? Self.defaultIdentityFiles : resolved.identityFiles,
                       "identityfile " + context)
        XCTAssertEqual(got["proxyjump"], resolved.proxyJump.map { [$0] }, "proxyjump " + context)
        XCTAssertEqual(got["proxycommand"], resolved.proxyCommand.map { [$0] }, "proxycommand " + context)
    }

    func testResolverAgreesWithSshG() throws {
        try XCTSkipUnless(ConfigFolder.sshAvailable, "needs /usr/bin/ssh")
        var r = SeededGenerator(seed: 20_261_201)
        var compared = 0
        for round in 0..<25 {
            let folder = try ConfigFolder()
            let (file, aliases) = try generate(&r, in: folder)
            let config = try folder.load(file)
            let resolver = SSHConfigResolver(configuration: config, localUser: ConfigFolder.localUser)
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            for alias in aliases {
                let resolved = resolver.resolve(alias)
                let ssh = try folder.sshG(file, alias)
                guard resolved.hostNameProblem == nil else {
                    XCTAssertNotEqual(ssh.status, 0, "round \(round) \(alias): ssh accepted \(ssh.lines)")
                    continue
                }
                XCTAssertEqual(ssh.status, 0, "round \(round) \(alias): \(ssh.stderr)\n\(text)")
                guard ssh.status == 0 else { continue }
                compare(resolved, sshLines: ssh.lines, context: "round \(round) alias \(alias)\n\(text)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 250)
    }

    /// The concrete names are the Host patterns without wildcards or negation, in order.
    func testAliasesAreTheConcreteHostNames() throws {
        let folder = try ConfigFolder()
        try folder.write("more.conf", "Host inc1 *.x\n")
        let file = try folder.write("config", "Host a b* !c\nHost d e\nInclude more.conf\nHost a f?\nMatch host g\n")
        let config = try folder.load(file)
        XCTAssertEqual(config.aliases.map(\.name), ["a", "d", "e", "inc1"])
        XCTAssertEqual(config.aliases.map(\.line), [1, 2, 2, 1])
        XCTAssertEqual(config.aliases[3].file, folder.ssh + "/more.conf")
        XCTAssertEqual(config.matchLines.count, 1)
    }

    /// Files ssh refuses are refused here too, with ssh's reason.
    func testRefusedWhereSshRefuses() throws {
        try XCTSkipUnless(ConfigFolder.sshAvailable, "needs /usr/bin/ssh")
        let cases: [(String, String)] = [
            ("Host a\n  HostName \"x\n", "invalid quotes"),
            ("Host a\nPort 0\n", "Bad port '0'."),
            ("Host b\nHost a\n  Port 65536\n", "Bad port '65536'."),
            ("Host a\n  HostName x y\n", "keyword hostname extra arguments at end of line"),
            ("Host a\n  ProxyJump a@b:c\n", "Invalid ProxyJump \"a@b:c\""),
            ("Match foo a\n", "Unsupported Match attribute foo"),
            ("Match host\n", "Missing Match criteria for host"),
            ("Match all host x\n", "'all' cannot be combined with other Match attributes"),
            ("User\n", "no argument after keyword \"user\""),
            ("Include config\n", "Too many recursive configuration includes"),
        ]
        for (text, reason) in cases {
            let folder = try ConfigFolder()
            let file = try folder.write("config", text)
            XCTAssertNotEqual(try folder.sshG(file, "a").status, 0, text)
            XCTAssertThrowsError(try folder.load(file), text) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error) for \(text)")
            }
        }
    }

    func testIncludeFromAnInactiveBlockAppliesNothing() throws {
        let folder = try ConfigFolder()
        try folder.write("inc.conf", "User fromInclude\nHost a\n  Port 2000\n")
        let file = try folder.write("config", "Host other\n  Include inc.conf\nHost a\n  Port 3000\n  User mine\n")
        let r = SSHConfigResolver(configuration: try folder.load(file), localUser: "me").resolve("a")
        XCTAssertEqual(r.port, 3000)
        XCTAssertEqual(r.user, "mine")
    }

    /// A Match line is decided once, when ssh reads it, even for the sections an Include in
    /// its block brings after a HostName that would change the answer.
    func testMatchIsDecidedWhereItStands() throws {
        try XCTSkipUnless(ConfigFolder.sshAvailable, "needs /usr/bin/ssh")
        let folder = try ConfigFolder()
        try folder.write("inc.conf", "HostName other.example\nHost a\n  Port 2001\nMatch all\n  User incuser\n")
        let file = try folder.write("config", "Match host a\n  Include inc.conf\n  Port 2002\n")
        let r = SSHConfigResolver(configuration: try folder.load(file), localUser: ConfigFolder.localUser).resolve("a")
        let g = try folder.sshG(file, "a")
        XCTAssertTrue(g.lines.contains("port \(r.port ?? 22)"), "\(g.lines) \(r)")
        XCTAssertTrue(g.lines.contains("hostname \(r.hostName ?? "")"), "\(g.lines)")
        XCTAssertTrue(g.lines.contains("user \(r.user ?? ConfigFolder.localUser)"), "\(g.lines)")
        XCTAssertEqual(r.port, 2001)
    }

    /// Each other option says whether it came from a block beyond the host's own names
    /// (`Host *`, a pattern, Match, before any Host line), which stays in effect for it.
    func testOtherOptionsSayWhetherTheirBlockIsShared() throws {
        let folder = try ConfigFolder()
        let file = try folder.write("config", """
            Compression yes
            Host a b
              ForwardAgent yes
            Host *.example a*
              TCPKeepAlive no
            Match all
              ConnectTimeout 5
            Host *
              ServerAliveInterval 30
              ForwardAgent no

            """)
        let r = SSHConfigResolver(configuration: try folder.load(file), localUser: "me").resolve("a")
        let shared = Dictionary(uniqueKeysWithValues: r.otherOptions.map { ($0.keyword, $0.fromSharedBlock) })
        XCTAssertEqual(shared, ["compression": true, "forwardagent": false, "tcpkeepalive": true,
                                "connecttimeout": true, "serveraliveinterval": true])
    }

    func testUndecidedMatchIsReported() throws {
        let folder = try ConfigFolder()
        let file = try folder.write("config", "Match exec \"true\"\n  User fromExec\nHost a\n  User mine\n")
        let r = SSHConfigResolver(configuration: try folder.load(file), localUser: "me").resolve("a")
        XCTAssertEqual(r.user, "mine")
        XCTAssertEqual(r.undecidedMatches.map(\.line), [1])
        XCTAssertEqual(r.undecidedMatches.first?.attribute, .exec)
    }
}
