// Every option name hostbook knows, spelled once. The command table declares its options
// by these (`OptionSpec.flag(.dryRun, ...)`) and a command reads what was parsed by them
// (`inv.args.flag(.dryRun)`, `.value(.port)`, `.int(.port, in: range)`), so a
// misspelled option name fails the build instead of reading as absent. ParsedArguments
// also knows which options the running command declared, and a read of one it does not
// declare stops a debug build (the tests) at that line; OptionNameTests checks that every
// name here is declared by some command.
import CommandLineKit

enum OptionName: String, OptionNaming, CaseIterable {
    case alias
    case application
    case all
    case allowAgentForwarding = "allow-agent-forwarding"
    case allowModule = "allow-module"
    case allowRemovals = "allow-removals"
    case bits
    case bundleUser = "bundle-user"
    case ca
    case caScope = "ca-scope"
    case command
    case commandStdin = "command-stdin"
    case comment
    case confirm
    case db
    case description
    case dryRun = "dry-run"
    case email
    case fingerprint
    case global
    case grant
    case hashed
    case help
    case host
    case hostname
    case identity
    case includeSkipped = "include-skipped"
    case install
    case json
    case jump
    case keepHosts = "keep-hosts"
    case keepPassword = "keep-password"
    case key
    case keyID = "key-id"
    case label
    case limit
    case name
    case namespace
    case newKey = "new-key"
    case noAgentForwarding = "no-agent-forwarding"
    case noAlias = "no-alias"
    case noConfirm = "no-confirm"
    case noGrant = "no-grant"
    case noHostKeys = "no-host-keys"
    case noInput = "no-input"
    case noJump = "no-jump"
    case noKey = "no-key"
    case noNamespace = "no-namespace"
    case noPassphrase = "no-passphrase"
    case noPassword = "no-password"
    case noUser = "no-user"
    case note
    case off
    case on
    case online
    case only
    case option
    case output
    case parents
    case passphraseFile = "passphrase-file"
    case passphraseStdin = "passphrase-stdin"
    case passwordStdin = "password-stdin"
    case pinStdin = "pin-stdin"
    case port
    case principal
    case printConfig = "print-config"
    case publicKey = "public-key"
    case randomart
    case rename
    case renameClashes = "rename-clashes"
    case replace
    case reset
    case resident
    case restore
    case repo
    case rounds
    case serial
    case sign
    case signer
    case slot
    case snippet
    case socket
    case source
    case sshConfirms = "ssh-confirms"
    case startAgent = "start-agent"
    case tag
    case takeOver = "take-over"
    case timeout
    case type
    case uninstall
    case untag
    case upstream
    case user
    case valid
    case validFrom = "valid-from"
    case validTo = "valid-to"
    case verifyRequired = "verify-required"
    case version
    case wide
    case yes
}
