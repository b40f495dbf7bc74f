// The KnownHostsCommand of one hop of a `hostbook ssh` session when the trust core accepts
// some of its stored host keys: a /bin/sh script in the session's private folder that
// answers ssh for exactly those keys, as `hostbook known-hosts lookup` would (the line
// "NAME TYPE BASE64" for a trusted key: SSHHostKeyLookup), and runs that command for every
// other question — another key (changed, revoked, unknown, a certificate), another host or
// port, the ORDER or ADDRESS phase. ssh runs KnownHostsCommand once per hop on the
// connection's critical path (sshconnect.c check_host_key → load_hostkeys_command, even
// when a known_hosts file already knows the key); a shell costs about a millisecond where
// a hostbook process with its SQLite open costs 15 or more.
//
// The decision stays the trust core's: the keys were each put to SSHHostKeyDecision.decide
// when the session started (SSHHostKeyDecision.acceptedKeys), and a key it would not accept
// then is not in the script. ssh's tokens arrive as separate arguments (sshconnect.c
// expands them after splitting the command), and every value the script holds is one
// shell word (ShellWord).
import KeyFormats

public struct SSHKnownHostsScript: Sendable {
    /// The program ssh runs the script with.
    public static let shell = "/bin/sh"

    /// hostbook's lookup command (SSHHostBlock.knownHostsCommand), run for every other key.
    public let lookupCommand: [String]
    /// The hop's HostName and Port, as ssh passes them (%h, %p).
    public let host: String
    public let port: Int
    /// The accepted keys, each answered as ssh passes it (%t %K: "TYPE BASE64").
    public let accepted: [PublicKey]

    public init(lookupCommand: [String], host: String, port: Int, accepted: [PublicKey]) {
        self.lookupCommand = lookupCommand
        self.host = host
        self.port = port
        self.accepted = accepted
    }

    /// The script's text. Its arguments are SSHHostKeyDecision.tokens:
    /// $1 %I (phase), $2 %H (name), $3 %h, $4 %p, $5 %t, $6 %K, $7 %n.
    public var text: String {
        var s = "# hostbook ssh: the host keys hostbook trusted for this hop when the session started;\n"
        s += "# anything else is asked of 'hostbook known-hosts lookup'.\n"
        if !accepted.isEmpty {
            s += "if [ \"$1\" = HOSTNAME ] && [ \"$3\" = \(Self.quoted(host)) ] && [ \"$4\" = \(port) ]; then\n"
            s += "    case \"$5 $6\" in\n"
            s += "    " + accepted.map { Self.quoted("\($0.type) \($0.base64)") }.joined(separator: "|") + ")\n"
            s += "        printf '%s %s %s\\n' \"$2\" \"$5\" \"$6\"\n"
            s += "        exit 0 ;;\n"
            s += "    esac\n"
            s += "fi\n"
        }
        s += "exec " + lookupCommand.map(Self.quoted).joined(separator: " ") + " \"$@\"\n"
        return s
    }

    /// One shell word (ShellWord, the one quoting rule).
    static func quoted(_ value: String) -> String { ShellWord.quoted(value) }
}
