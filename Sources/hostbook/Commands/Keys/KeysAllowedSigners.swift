// `hostbook keys allowed-signers`: git's allowed signers file as the inventory makes it
// (AllowedSigners), the same bytes `hostbook git setup` writes.
import CommandLineKit
import HostStore
import Sessions
import Workflows

enum KeysAllowedSigners {
    static let spec = CommandSpec(
        ["keys", "allowed-signers"],
        summary: "Print git's allowed signers file for the keys set up with 'hostbook git setup'",
        discussion: """
            One line per key set up for git: its email, namespaces="git", the public key and \
            the key's name, sorted. 'hostbook git setup' writes the same lines to \
            $XDG_CONFIG_HOME/hostbook/allowed_signers, and every later change of keys rewrites it.
            """,
        run: run)

    static func run(_ inv: Invocation) throws {
        let bytes = try KeysRefusal.database(.readKeys) {
            try AllowedSigners.render(database: inv.workspace.existingDatabase())
        }
        if inv.json {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { JSONValue.string(String($0)) }
            inv.printJSON(.object([("path", .string(AllowedSigners.path(home: inv.homeDirectory, environment: inv.environment))),
                                   ("lines", .array(lines))]))
        } else if inv.stdoutIsTerminal {
            // A key's name is the user's text: escaped on a terminal, like any other.
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") { inv.print("\(String(line))") }
        } else {
            // Into a file or a pipe: the file's bytes exactly.
            inv.write(.raw(String(decoding: bytes, as: UTF8.self)))
        }
    }
}
