// A `Match` line (readconf.c match_cfg_line, OpenSSH 9.2; docs/openssh-behaviour.md, "ssh_config"):
// criteria `all`, `canonical`, `final`, `exec`, `host`, `originalhost`, `user`,
// `localuser`, each negatable with `!`; all must hold. hostbook evaluates what depends
// only on the names; `exec` (a command ssh would run), `canonical` and `final` (later
// passes over the configuration) it does not decide, and says so.

public struct SSHConfigMatch: Sendable, Equatable {
    public enum Attribute: String, Sendable, Equatable {
        case all, canonical, final, exec, host, originalhost, user, localuser
    }

    public struct Criterion: Sendable, Equatable {
        public let attribute: Attribute
        public let negated: Bool
        /// The pattern list (or the command, for `exec`); empty for all/canonical/final.
        public let argument: String
    }

    public let criteria: [Criterion]

    /// What a Match line decides for one host.
    public enum Outcome: Sendable, Equatable {
        case matches, doesNotMatch
        /// Depends on something hostbook does not evaluate (the criterion named).
        case undecided(Attribute)
    }

    /// Reads the rest of a Match line with ssh's tokenizer for it (strdelim: `"` quotes,
    /// `=` may separate). Throws ssh's message for a line ssh refuses.
    public init(rest: String) throws(SSHConfigLexerMessage) {
        let bytes = Array(rest.utf8)[...]
        var cursor: Int? = bytes.startIndex
        var criteria: [Criterion] = []
        func next() -> String? {
            guard let token = SSHConfigLexer.delimit(bytes, &cursor) else { return nil }
            return String(decoding: token, as: UTF8.self)
        }
        var attributes = 0
        while let token = next(), !token.isEmpty {
            if token.hasPrefix("#") { break }
            let negated = token.hasPrefix("!")
            let name = HostPatternMatch.lowercased(negated ? String(token.dropFirst()) : token)
            if name == "all" {
                let after = next()
                if attributes > 0 || (after != nil && after != "" && !after!.hasPrefix("#")) {
                    throw SSHConfigLexerMessage("'\(token)' cannot be combined with other Match attributes")
                }
                criteria.append(Criterion(attribute: .all, negated: negated, argument: ""))
                self.criteria = criteria
                return
            }
            attributes += 1
            if name == "canonical" || name == "final" {
                criteria.append(Criterion(attribute: name == "final" ? .final : .canonical, negated: negated, argument: ""))
                continue
            }
            guard let attribute = Attribute(rawValue: name) else {
                throw SSHConfigLexerMessage("Unsupported Match attribute \(negated ? String(token.dropFirst()) : token)")
            }
            guard let argument = next(), !argument.isEmpty, !argument.hasPrefix("#") else {
                throw SSHConfigLexerMessage("Missing Match criteria for \(negated ? String(token.dropFirst()) : token)")
            }
            criteria.append(Criterion(attribute: attribute, negated: negated, argument: argument))
        }
        if attributes == 0 && criteria.isEmpty {
            throw SSHConfigLexerMessage("One or more attributes required for Match")
        }
        self.criteria = criteria
    }

    /// Decides the line for `originalHost` (the alias typed), the HostName and User
    /// obtained so far (nil when unset) and the local user name.
    public func evaluate(originalHost: String, hostName: String?, user: String?, localUser: String) -> Outcome {
        var undecided: Attribute?
        for c in criteria {
            let result: Bool
            switch c.attribute {
            case .all:
                result = true
            case .canonical, .final, .exec:
                if undecided == nil { undecided = c.attribute }
                continue
            case .host:
                let host = hostName.flatMap { try? SSHConfigTokens.expandHostName($0, originalHost: originalHost) } ?? originalHost
                result = HostPatternMatch.listMatch(HostPatternMatch.lowercased(host), list: c.argument, lowercasePatterns: true) == 1
            case .originalhost:
                result = HostPatternMatch.listMatch(HostPatternMatch.lowercased(originalHost), list: c.argument, lowercasePatterns: true) == 1
            case .user:
                result = HostPatternMatch.listMatch(user ?? localUser, list: c.argument, lowercasePatterns: false) == 1
            case .localuser:
                result = HostPatternMatch.listMatch(localUser, list: c.argument, lowercasePatterns: false) == 1
            }
            if result == c.negated { return .doesNotMatch }
        }
        if let undecided { return .undecided(undecided) }
        return .matches
    }
}

/// A message from a line-level check (the loader adds the file and line).
public struct SSHConfigLexerMessage: Error, Sendable, Equatable {
    public let text: String
    public init(_ text: String) { self.text = text }
}
