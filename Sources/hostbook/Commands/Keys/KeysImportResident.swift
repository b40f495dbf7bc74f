// `hostbook keys import-resident [--name PREFIX]`: the resident (discoverable) credentials a
// security key keeps for SSH, each stored as a key of its own (its handle in the vault),
// as `ssh-keygen -K` writes them to files.
import CommandLineKit
import Credentials
import Workflows
import HostStore
import KeyFormats
import SecurityKeys

enum KeysImportResident {
    static let spec = CommandSpec(
        ["keys", "import-resident"], changesHostsOrKeys: true,
        summary: "Store the resident keys of a plugged-in security key",
        usage: "[--name PREFIX]",
        discussion: """
        Asks the authenticator (through SSH_SK_PROVIDER's library, else OpenSSH's
        ssh-sk-helper) for the credentials it keeps for ssh: applications, and stores each
        one's key handle in the vault. A key is named after its application (ssh:NAME gives
        NAME, plain ssh: gives 'security-key'), with PREFIX before it when given and -2, -3 ...
        after a name already taken. A key stored already is left as it is. The
        authenticator's PIN is asked on the terminal.
        """,
        options: [.value(.name, "PREFIX", "Put PREFIX before each key's name")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let prefix = inv.args.value(.name) ?? ""
        let ctx = try KeysContext.open(inv.workspace)
        let middleware: any SecurityKeyMiddleware
        do { middleware = try SecurityKeyAccess.provider(inv.environment).middleware() } catch { throw error.cliError(key: nil) }
        let keys = try SecurityKeyAccess.withPIN(inv, key: nil) { (pin) throws(SecurityKeyError) in try middleware.loadResidentKeys(pin: pin) }
        let (stored, skipped) = try ResidentKeyImport.store(keys, prefix: prefix, ctx)
        if inv.json {
            inv.printJSON(.array(try stored.map { try KeyPresentation.json($0) }))
        } else {
            for key in stored { inv.print("Imported key '\(key.name)': \(try KeyPresentation.summary(key))") }
            if stored.isEmpty && skipped == 0 { inv.note("The security key holds no resident keys for ssh: applications.") }
            if skipped > 0 { inv.note("\(skipped) resident key(s) were stored already and are left as they are.") }
        }
    }
}
