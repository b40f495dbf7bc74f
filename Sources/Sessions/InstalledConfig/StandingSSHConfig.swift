// The installed ssh configuration (`hostbook ssh-config`): one Host block per saved host,
// written by the same SSHHostBlock as `hostbook ssh`'s session configuration, pointing at
// the standing agent's socket and at public key files hostbook writes beside it. A host
// whose name or values ssh_config cannot express safely is skipped with a warning, and so
// is a host whose jump host was skipped (its ProxyJump would name nothing). A host whose
// name the user's own configuration defines is left out (UserSSHConfigHosts): the user's
// block keeps its name. A host's aliases follow its name on the Host line (`Host devbox
// dev`), each left out when the user's configuration defines it. Each host is given its
// kept known_hosts file (KeptKnownHosts) with `UpdateHostKeys yes`, so that plain ssh
// learns host-key rotation as OpenSSH does: in one shared line of ssh's tokens
// (`known_hosts/%h_%p`) for a host name held to file-name-safe characters, else in a line of
// its own block.
//
// ssh parses every line of the file on every start, inactive blocks too (benchmarks/README.md,
// "Issue 32: ssh -G at 10,000 hosts"), so each host's block holds only its own lines
// (SSHHostBlock.writeOwn) and the lines every host shares (KnownHostsCommand, IdentityAgent,
// UserKnownHostsFile in tokens, ...: SSHHostBlock.sharedLines) are written once per group of `groupSize` names, in
// `Host a b c ...` blocks after all the hosts' blocks (still before `Match all`, the added
// hosts and the user's own configuration). No keyword is set in both places, so ssh's
// first-obtained-value-wins rule resolves every host as a block holding all its lines would.
// The names on those lines are the very words of the hosts' own Host lines, each one literal
// name (SSHConfigWriter.checkAlias refuses patterns, negation, lists and spaces), so a name
// matches only the host it is, and a host left out is on no line.
public import HostStore
import KeyFormats
public import SSHConfig

public struct StandingSSHConfig: Sendable {
    public static let header = "# Written by hostbook (hostbook ssh-config --install); hostbook rewrites it, do not edit.\n"

    /// The text, the public key and certificate files it names (path → their line), the
    /// warnings for skipped hosts, the hosts left out for the user's own blocks (also among
    /// the warnings), and the names of the hosts written.
    public struct Rendered: Sendable {
        public var text: String
        public var publicKeyFiles: [String: String]
        public var warnings: [String]
        public var clashes: [Clash] = []
        public var written: [String] = []
        /// Each written host's own block (its `Host` line to its last own setting), in
        /// `written`'s order.
        public var blocks: [String] = []
        /// Each written host's names as on its Host line (name, then aliases), in `written`'s order.
        public var names: [[String]] = []
        /// The lines every host shares, indented, as they follow a group's Host line.
        public var shared: String = ""

        /// A group's block: the Host line of `names` and the shared lines.
        public func groupBlock(_ names: [String]) -> String {
            "Host " + names.joined(separator: " ") + "\n" + shared
        }

        /// The written host at `index` alone: its own block, then the shared lines for its
        /// names (an added host's file, doctor's probe).
        public func standalone(_ index: Int) -> String {
            blocks[index] + "\n" + groupBlock(names[index])
        }
    }

    /// The names on each group's Host line.
    public static let groupSize = 200

    /// A saved host left out because the user's configuration defines its name.
    public struct Clash: Sendable {
        public let host: String
        public let definition: SSHConfigAlias

        public var place: String { "'\(definition.file)' line \(definition.line)" }
        public var warning: String {
            "skipped host '\(host)': \(place) has your own Host block for it, which hostbook leaves in charge"
        }
    }

    public let block: SSHHostBlock
    public let agentSocket: String
    /// `$XDG_CONFIG_HOME/hostbook/keys`.
    public let keysFolder: String
    /// The known_hosts files ssh is given with `UpdateHostKeys yes` (one per host name and
    /// port); nil: none, `UpdateHostKeys no`.
    public let knownHosts: KeptKnownHosts?

    public init(block: SSHHostBlock, agentSocket: String, keysFolder: String, knownHosts: KeptKnownHosts? = nil) {
        self.block = block
        self.agentSocket = agentSocket
        self.keysFolder = keysFolder
        self.knownHosts = knownHosts
    }

    /// `userHosts`: the names the user's own configuration defines (UserSSHConfigHosts).
    public func render(hosts: [Host], keys: [StoredKey], userHosts: [String: SSHConfigAlias]) -> Rendered {
        var out = Rendered(text: Self.header, publicKeyFiles: [:], warnings: [])
        // The lines every host shares, quoted once (when they cannot be written, each host is
        // skipped below with the reason).
        let shared: Result<SSHConfigLines, SSHConfigWriterError>
        // The known_hosts files for rotation, named once with ssh's tokens (KeptKnownHosts.tokens).
        let rotationTokens = knownHosts.map { SSHConfigWriter.escapingPercent($0.folder) + "/" + KeptKnownHosts.tokens }
        do { shared = .success(try block.sharedLines(rotationTokens: rotationTokens, agentSocket: agentSocket)) } catch let e as SSHConfigWriterError {
            shared = .failure(e)
        } catch {
            shared = .failure(SSHConfigWriterError(keyword: "KnownHostsCommand", reason: "\(error)"))
        }
        if case .success(let lines) = shared { out.shared = lines.indentedText }
        let keysByName = Dictionary(keys.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var written: Set<String> = []
        // A chain longer than `hostbook ssh` follows (and `add`/`edit` now refuse) is left
        // out, as is every host jumping through it; loops are found below.
        let byName = Dictionary(hosts.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        // Positions in `hosts`, not copies of them: 10,000 hosts are copied otherwise on
        // every round.
        var pending: [Int] = []
        var pendingNames: Set<String> = []
        for (i, host) in hosts.enumerated() {
            if host.jump != nil, case .tooLong = JumpChain.walk(from: host, find: { byName[$0.lowercased()] }) {
                out.warnings.append("skipped host '\(host.name)': its jump hosts make a chain of more than \(JumpChain.maxHosts) hosts")
            } else {
                pending.append(i)
                pendingNames.insert(host.name.lowercased())
            }
        }
        // Jump hosts first, so that a host whose jump host was skipped is skipped too.
        var progress = true
        while !pending.isEmpty && progress {
            progress = false
            var rest: [Int] = []
            for index in pending {
                let host = hosts[index]
                if let definition = userHosts[host.name] {
                    let clash = Clash(host: host.name, definition: definition)
                    out.clashes.append(clash)
                    out.warnings.append(clash.warning)
                    progress = true
                    continue
                }
                if let jump = host.jump, !written.contains(jump.lowercased()) {
                    // The names of this round's `pending` in a set, not a scan of it: one scan
                    // per jumping host made 10,000 hosts with 1,000 jumps cost 10 million
                    // name comparisons.
                    if pendingNames.contains(jump.lowercased()) { rest.append(index); continue }
                    let why = out.clashes.contains { $0.host.lowercased() == jump.lowercased() } ? "is left out for your own Host block" : "is not in the configuration"
                    out.warnings.append("skipped host '\(host.name)': its jump host '\(jump)' \(why)")
                    progress = true
                    continue
                }
                progress = true
                var identity: SSHHostBlock.Identity?
                var keyLine: (String, String)?
                var certificateLine: (String, String)?
                if let keyName = host.key, let key = keysByName[keyName.lowercased()], let publicKey = try? PublicKey(blob: key.publicKeyBlob) {
                    let file = keysFolder + "/" + Self.fileName(for: key) + ".pub"
                    if let certificate = key.certificate, certificate.role == .user {
                        certificateLine = (keysFolder + "/" + Self.certificateFileName(for: key), certificate.line(comment: key.name) + "\n")
                    }
                    identity = SSHHostBlock.Identity(agentSocket: agentSocket, publicKeyFile: file, certificateFile: certificateLine?.0)
                    keyLine = (file, publicKey.line(comment: key.name) + "\n")
                }
                // An alias the user's own configuration defines stays theirs, like a name.
                var aliases: [String] = []
                for alias in host.aliases {
                    if let definition = userHosts[alias] {
                        out.warnings.append("left out the alias '\(alias)' of host '\(host.name)': "
                                            + "'\(definition.file)' line \(definition.line) has your own Host block for it, which hostbook leaves in charge")
                    } else {
                        aliases.append(alias)
                    }
                }
                var w = SSHConfigWriter()
                do {
                    _ = try shared.get()
                    try block.writeOwn(&w, host: host, alias: host.name, aliases: aliases, jumpAlias: host.jump, identity: identity,
                                       rotationFile: Self.ownRotationFile(knownHosts, host))
                } catch let e as SSHConfigWriterError {
                    out.warnings.append("skipped host '\(host.name)': ssh_config cannot express it (\(e.description))")
                    continue
                } catch {
                    continue
                }
                out.text += "\n"
                out.text += w.text
                written.insert(host.name.lowercased())
                out.written.append(host.name)
                out.blocks.append(w.text)
                out.names.append([host.name] + aliases)
                if let (file, line) = keyLine { out.publicKeyFiles[file] = line }
                if let (file, line) = certificateLine { out.publicKeyFiles[file] = line }
            }
            pending = rest
            pendingNames = Set(rest.map { hosts[$0].name.lowercased() })
        }
        for index in pending {
            out.warnings.append("skipped host '\(hosts[index].name)': its jump hosts form a loop")
        }
        let allNames = out.names.flatMap { $0 }
        var start = 0
        while start < allNames.count {
            let end = min(start + Self.groupSize, allNames.count)
            out.text += "\n"
            out.text += out.groupBlock(Array(allNames[start..<end]))
            start = end
        }
        return out
    }

    /// The host's known_hosts file for rotation when the shared lines' tokens do not name it
    /// (KeptKnownHosts.namedByTokens), for a line of its own block. A saved hostname with
    /// upper-case letters has its line too: ssh lower-cases `%h` (OpenSSH 9.2), and the file
    /// named outright does not depend on it.
    static func ownRotationFile(_ knownHosts: KeptKnownHosts?, _ host: Host) -> String? {
        let lookup = HostLookupName(host: host.hostname, port: host.port)
        guard let knownHosts, !KeptKnownHosts.namedByTokens(lookup) || lookup.host != host.hostname else { return nil }
        return knownHosts.path(for: lookup)
    }

    /// A key's file name: its name when that is a plain file name, else its uuid. A name
    /// ending in `.pub` takes the uuid too: the IdentityFile is the file name without
    /// `.pub` (SSHHostBlock.Identity), which must not be another key's public key file.
    /// A key's certificate file: `UUID.cert.pub`. Not `NAME-cert.pub`, which ssh also loads
    /// by itself beside IdentityFile NAME (ssh.c load_public_identity_files) and which a key
    /// named `NAME-cert` would have as its public key file.
    public static func certificateFileName(for key: StoredKey) -> String { key.uuid + ".cert.pub" }

    public static func fileName(for key: StoredKey) -> String {
        let plain = key.name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-@+".unicodeScalars.contains($0) }
        return plain && !key.name.hasPrefix(".") && !key.name.hasSuffix(".pub") ? key.name : key.uuid
    }
}
