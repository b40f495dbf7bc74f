// What one `hostbook ssh NAME` connects through: the saved host and its jump hosts (each
// with its own hostname, port, user, key and password), and the snippet to run. Reading
// the database comes first and needs no vault; the secrets are read in `loadSecrets`.
import Agent
import HostStore
import KeyFormats
import SecureMemory
import Vault

struct SSHHop: Sendable {
    let host: Host
    /// The alias of its Host block: the saved name.
    let alias: String
    /// The alias of the next hop towards hostbook (its ProxyJump), or nil.
    let jumpAlias: String?
    /// The attached key's metadata (public half only).
    let key: StoredKey?
    /// The algorithms of its trusted host keys, preferred in the key exchange.
    var hostKeyAlgorithms: [String] = []

    var publicKey: PublicKey? { key.flatMap { try? PublicKey(blob: $0.publicKeyBlob) } }
    var hasPassword: Bool { host.auth == .password }
}

struct SSHPlan: Sendable {
    let databaseID: String
    /// The target first, then its jump host, that one's jump host, ...
    var hops: [SSHHop]
    let snippet: String?

    var target: SSHHop { hops[0] }
    var needsAgent: Bool { hops.contains { $0.key != nil } }
    var needsAskpass: Bool { hops.contains { $0.hasPassword } }

    /// Reads the host, its jump chain and the snippet. A missing host or snippet is exit 4.
    static func load(_ inv: Invocation, name: String, snippetName: String?) throws -> SSHPlan {
        let database: HostDatabase
        do {
            guard let opened = try HostStoreAccess.openForReading(inv) else {
                throw CLIError.notFound("no host named '\(name.escapedForTerminal)'", hint: "Run 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.")
            }
            database = opened
        } catch let e as CLIError {
            throw e
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreErrorPresentation.cliError(e)
        }
        do {
            let snippet: String?
            if let snippetName {
                guard let found = try database.snippet(named: snippetName) else {
                    throw CLIError.notFound("no snippet named '\(snippetName.escapedForTerminal)'", hint: "Run 'hostbook snippets list' to see the snippets.")
                }
                snippet = found.command
            } else {
                snippet = nil
            }
            guard let target = try database.host(named: name) else {
                throw CLIError.notFound("no host named '\(name.escapedForTerminal)'", hint: "Run 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.")
            }
            let chain: [Host]
            switch try JumpChain.walk(from: target, find: database.host(named:)) {
            case .chain(let hosts): chain = hosts
            case .loop(let hosts):
                throw CLIError.failure("the jump hosts of '\(name.escapedForTerminal)' form a loop at '\((hosts.last!.jump ?? "").escapedForTerminal)'",
                                       hint: "Fix it with 'hostbook edit NAME --no-jump' on one of them.")
            case .tooLong:
                throw CLIError.failure(JumpChain.tooLongMessage(name).escapedForTerminal, hint: "Shorten it with 'hostbook edit NAME --jump' or '--no-jump'.")
            case .missing(let jump, let of):
                throw CLIError.notFound("the jump host '\(jump.escapedForTerminal)' of '\(of.escapedForTerminal)' does not exist")
            }
            let keys = KeyStore(database: database)
            var hops: [SSHHop] = []
            for (i, host) in chain.enumerated() {
                var key: StoredKey?
                if let keyName = host.key {
                    guard let found = try keys.find(name: keyName) else {
                        throw CLIError.notFound("the key '\(keyName.escapedForTerminal)' of host '\(host.name.escapedForTerminal)' does not exist")
                    }
                    key = found
                }
                var hop = SSHHop(host: host, alias: host.name, jumpAlias: i + 1 < chain.count ? chain[i + 1].name : nil, key: key)
                hop.hostKeyAlgorithms = try SSHHostKeyLookup.preferredAlgorithms(KnownHostsStore(database: database), host: host.hostname, port: host.port)
                hops.append(hop)
            }
            return SSHPlan(databaseID: database.databaseID, hops: hops, snippet: snippet)
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreErrorPresentation.cliError(e)
        }
    }

    /// Reads each hop's private key and password from the vault into secure memory.
    /// `localUser` is the user ssh logs in as where a hop sets none.
    func loadSecrets(localUser: String) throws -> SSHSecrets {
        let vault = VaultClient(databaseID: databaseID)
        var secrets = SSHSecrets()
        for (index, hop) in hops.enumerated() {
            if let stored = hop.key {
                let key = try VaultPrivateKey.read(stored, from: vault)
                if !secrets.identities.contains(where: { $0.publicKey == key.publicKey }) {
                    secrets.identities.append(AgentIdentity(key: key, comment: stored.name))
                }
            }
            if hop.hasPassword {
                let host = hop.host
                let password = try HostPasswords.vault("read the password of '\(host.name)'") {
                    try vault.lookup(HostPasswords.itemID(for: host))
                }
                guard let password else {
                    throw CLIError.failure("the password of '\(host.name)' is not in the vault",
                                           hint: "Store it again with 'hostbook edit \(host.name) --password-stdin'.")
                }
                secrets.passwords.append(SSHPasswordAnswer(hop: index, prompt: SSHAskpass.passwordPrompt(user: host.user ?? localUser, hostname: host.hostname),
                                                           password: password))
            }
        }
        return secrets
    }
}

/// The secrets of a session, in secure memory: the keys the agent serves, and the password
/// of each hop that has one.
struct SSHSecrets: @unchecked Sendable {
    var identities: [AgentIdentity] = []
    var passwords: [SSHPasswordAnswer] = []
}
