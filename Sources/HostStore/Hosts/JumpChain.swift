// The one walk along a host's jump hosts, with the one limit on its length: saving a host
// (`add`/`edit --jump`, HostRepository), connecting (`hostbook ssh`, SSHPlan) and the
// installed ssh configuration (StandingSSHConfig) all walk with it, so a chain one of them
// refuses is refused, or left out, by all of them.

public enum JumpChain {
    /// The most hosts a chain may hold: the host itself and up to 7 jump hosts.
    public static let maxHosts = 8

    public enum Walk<H> {
        /// The host first, then its jump host, that one's jump host, ...
        case chain([H])
        /// The chain walked so far, whose last host's jump host is already in it.
        case loop([H])
        /// Longer than `maxHosts` (the walk stops there: a loop further on is not looked for).
        case tooLong
        /// The jump host called `jump`, of the host called `of`, does not exist.
        case missing(jump: String, of: String)
    }

    /// Walks from `start`: `jump` gives a host's jump host's name, `find` the host of a name.
    public static func walk<H>(from start: H, name: (H) -> String, jump: (H) -> String?,
                               find: (String) throws -> H?) rethrows -> Walk<H> {
        var chain = [start]
        while let next = jump(chain.last!) {
            if chain.contains(where: { name($0).lowercased() == next.lowercased() }) { return .loop(chain) }
            guard chain.count < maxHosts else { return .tooLong }
            guard let host = try find(next) else { return .missing(jump: next, of: name(chain.last!)) }
            chain.append(host)
        }
        return .chain(chain)
    }

    /// `walk` over saved hosts.
    public static func walk(from start: Host, find: (String) throws -> Host?) rethrows -> Walk<Host> {
        try walk(from: start, name: \.name, jump: \.jump, find: find)
    }

    /// The one-line refusal of a chain longer than `maxHosts`.
    public static func tooLongMessage(_ name: String) -> String {
        "the jump hosts of '\(name)' make a chain of more than \(maxHosts) hosts (the host and at most \(maxHosts - 1) jump hosts)"
    }
}
