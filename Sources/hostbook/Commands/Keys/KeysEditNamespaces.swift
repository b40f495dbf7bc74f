// `hostbook keys edit NAME --namespace NS... | --no-namespace`: the SSHSIG namespaces a key
// is restricted to (KeyNamespaces). `--namespace` (repeatable) makes the given names the
// key's whole set: it then signs only SSHSIG signatures in them (`ssh-keygen -Y sign -n NS`,
// git with NS `git`), refuses ssh authentication and is not offered to servers
// (AgentAccessPolicy). `--no-namespace` lifts the restriction.
import CommandLineKit
import HostStore
import Workflows

enum KeysEditNamespaces {
    static let options: [OptionSpec] = [
        .value(.namespace, "NS", "Sign only SSHSIG signatures in namespace NS (e.g. git); never ssh logins. Repeatable", repeatable: true),
        .flag(.noNamespace, "Lift the namespace restriction: the key signs ssh logins again"),
    ]

    /// True when the command line asks for a change of namespaces.
    static func given(_ inv: Invocation) -> Bool { inv.args.has(.namespace) || inv.args.flag(.noNamespace) }

    /// The namespaces asked for (empty: lifted), checked before anything is written; nil
    /// when none of these options was given.
    static func requested(_ inv: Invocation) throws -> Set<String>? {
        guard given(inv) else { return nil }
        try inv.args.exclusive(.namespace, .noNamespace)
        if inv.args.flag(.noNamespace) { return [] }
        let names = inv.args.values(.namespace)
        for name in names {
            if let problem = KeyNamespaces.problem(name) {
                throw CLIError.rejected("\(problem): \(name)", hint: "Give a namespace such as 'git' or 'file' with --namespace.")
            }
        }
        return Set(names)
    }

    /// One line saying what the key may sign now.
    static func summary(_ namespaces: Set<String>, key: StoredKey) -> TerminalText {
        if namespaces.isEmpty { return "Key '\(key.name)' is not restricted to namespaces: it signs ssh logins again." }
        return "Key '\(key.name)' now signs only SSHSIG signatures in namespace \(namespaces.sorted().joined(separator: ", ")); it refuses ssh logins and is not offered to servers."
    }
}
