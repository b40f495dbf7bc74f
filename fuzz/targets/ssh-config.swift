// ssh_config files: the lexer and document, the loader (Include resolved in memory: the
// input includes itself as `c`, so the nesting limit is reached), the resolver for every
// concrete alias (and one the input does not name), and the value readers it uses.
@testable import SSHConfig

func fuzzOne(_ bytes: [UInt8]) {
    SSHConfigFuzz.exercise(bytes)
}

enum SSHConfigFuzz {
    static func exercise(_ bytes: [UInt8]) {
        let access = SSHConfigFileAccess(
            read: { path in
                guard path == "/c" else { throw SSHConfigLexerMessage("no such file") }
                return bytes
            },
            glob: { pattern in pattern == "~/.ssh/c" || pattern == "/c" ? ["/c"] : [] })
        guard let config = try? SSHConfigLoader.load("/c", access: access) else { return }
        let resolver = SSHConfigResolver(configuration: config, localUser: "fuzz")
        for alias in config.aliases.prefix(64).map(\.name) + ["fuzz.example"] {
            let r = resolver.resolve(alias)
            if let jump = r.proxyJump { _ = SSHConfigValues.jumpHops(jump) }
            for path in r.identityFiles { _ = try? SSHConfigTokens.expand(path, ["h": alias, "d": "/home/fuzz", "%": "%"]) }
        }
    }
}
