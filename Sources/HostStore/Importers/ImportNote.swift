// One line an import reports about what it did not keep or do (an ssh_config host's
// settings, a file-wide note, a Tailscale host key left untrusted). Its words are the
// importer's; a fix that is a hostbook command is a Remedy, data the executable words
// (ImportNote+Presentation.swift), so no command line is written in this library. A note
// without a remedy is written as a string literal.
public struct ImportNote: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// The fix that is a hostbook command.
    public enum Remedy: Sendable, Equatable {
        /// `hostbook keys import PATH`, then the same import again.
        case importKeyThenImportAgain(path: String)
        /// `hostbook remove NAME` removes the host the import kept.
        case removeHost(name: String)
        /// `hostbook known-hosts check` still applies the entries the import did not compare.
        case knownHostsCheckStillApplies
        /// `hostbook known-hosts approve --replace` decides between the trusted key and this one.
        case approveReplacing
        /// ProxyJump in the ssh_config, or `hostbook add NAME --hostname H --jump JUMP`,
        /// reaches a host the file reaches through a ProxyCommand.
        case proxyJumpOrAddWithJump(name: String)
    }

    /// What happened, one line, without the remedy.
    public let text: String
    public let remedy: Remedy?

    public init(_ text: String, remedy: Remedy? = nil) {
        self.text = text
        self.remedy = remedy
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }
}
