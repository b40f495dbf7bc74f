// The ssh_config of one `hostbook ssh` session (docs/openssh-behaviour.md, "ssh_config",
// "ProxyJump", "SSH_ASKPASS"): a Host block for the target and one for each jump host, each
// with its own HostName, Port, User, ProxyJump (by alias), key and host-key settings; then
// `Match all` and the user's own configuration, which supplies everything hostbook does not
// set (the first value ssh obtains wins, so hostbook's blocks come first).
import SSHConfig

public struct SSHSessionConfig: Sendable {
    /// Paths the blocks point at: the agent socket, and each hop's public key file.
    public struct Paths: Sendable {
        public var agentSocket: String?
        /// Hop alias → its public key file.
        public var publicKeyFiles: [String: String] = [:]
        /// Hop alias → its key's certificate file (hops whose key has a user certificate).
        public var certificateFiles: [String: String] = [:]
        /// Hop alias → its SSHKnownHostsScript (hops with accepted host keys).
        public var knownHostsScripts: [String: String] = [:]
        /// Hop alias → its known_hosts file for learning a rotation (SSHHostKeyRotation).
        public var rotationFiles: [String: String] = [:]
        /// Hops whose rotation file starts empty: a first use ssh confirms through the
        /// session's askpass (SSHHostKeyRotation.learnsOnFirstUse).
        public var firstUseHops: Set<String> = []

        public init(agentSocket: String? = nil, publicKeyFiles: [String: String] = [:]) {
            self.agentSocket = agentSocket
            self.publicKeyFiles = publicKeyFiles
        }
    }

    /// hostbook itself as KnownHostsCommand: absolute program path and database path.
    public let hostbookPath: String
    public let databasePath: String
    /// Passed on to KnownHostsCommand: never prompt for an unknown host key.
    public let noInput: Bool

    public init(hostbookPath: String, databasePath: String, noInput: Bool) {
        self.hostbookPath = hostbookPath
        self.databasePath = databasePath
        self.noInput = noInput
    }

    /// The configuration's text; a name or value ssh_config cannot express is
    /// SessionRefusal.sshConfigNotWritable.
    public func render(_ plan: SSHPlan, paths: Paths) throws -> String {
        var w = SSHConfigWriter()
        do {
            for hop in plan.hops { try block(&w, hop, plan: plan, paths: paths) }
            w.matchAll()
            try w.set("Include", "~/.ssh/config")
            try w.set("Include", "/etc/ssh/ssh_config")
        } catch let e as SSHConfigWriterError {
            throw SessionRefusal.sshConfigNotWritable(reason: e.description)
        }
        return w.text
    }

    private func block(_ w: inout SSHConfigWriter, _ hop: SSHHop, plan: SSHPlan, paths: Paths) throws {
        var identity: SSHHostBlock.Identity?
        if hop.key != nil, let socket = paths.agentSocket, let file = paths.publicKeyFiles[hop.alias] {
            identity = SSHHostBlock.Identity(agentSocket: socket, publicKeyFile: file, certificateFile: paths.certificateFiles[hop.alias])
        }
        try SSHHostBlock(hostbookPath: hostbookPath, databasePath: databasePath, noInput: noInput)
            .write(&w, host: hop.host, alias: hop.alias, jumpAlias: hop.jumpAlias, identity: identity,
                   knownHostsScript: paths.knownHostsScripts[hop.alias], rotationFile: paths.rotationFiles[hop.alias],
                   sshConfirmsFirstUse: paths.firstUseHops.contains(hop.alias))
        // Session only: the host keys' algorithms, no forwarding of the session's agent, and
        // the stored password answered through SSH_ASKPASS.
        if !hop.hostKeyAlgorithms.isEmpty { try w.set("HostKeyAlgorithms", "^" + hop.hostKeyAlgorithms.joined(separator: ",")) }
        if identity != nil { try w.set("ForwardAgent", "no") }
        if hop.hasPassword {
            try w.set("PreferredAuthentications", hop.key != nil ? "publickey,password" : "password")
            try w.set("PasswordAuthentication", "yes")
            try w.set("KbdInteractiveAuthentication", "no")
            try w.set("NumberOfPasswordPrompts", "1")
        }
    }
}
