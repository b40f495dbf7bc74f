// One saved host as an ssh_config `Host` block: what `hostbook ssh`'s session
// configuration and the installed configuration (`hostbook ssh-config`) both say about
// it — HostName, Port, User, ProxyJump by alias, hostbook as the only authority on host
// keys (KnownHostsCommand, no known_hosts files, StrictHostKeyChecking yes, UpdateHostKeys
// no; in a session, a hop that learns its rotation has its own known_hosts file of the
// entries the store trusts for it and UpdateHostKeys yes: SSHHostKeyRotation), and the agent
// with the host's public key file as its IdentityFile (and the key's certificate as its
// CertificateFile).
public import HostStore
public import SSHConfig

public struct SSHHostBlock: Sendable {
    /// hostbook itself as KnownHostsCommand: absolute program path and database path.
    public let hostbookPath: String
    public let databasePath: String
    /// Passed on to KnownHostsCommand: never prompt for an unknown host key.
    public let noInput: Bool

    /// The host-key lines with hostbook's own KnownHostsCommand, the same for every host:
    /// quoted once (the installed configuration writes them for 10,000 hosts). Nil when
    /// they cannot be written; `write` then says why for each host.
    private let hostKeyLines: SSHConfigLines?

    public init(hostbookPath: String, databasePath: String, noInput: Bool) {
        self.hostbookPath = hostbookPath
        self.databasePath = databasePath
        self.noInput = noInput
        let command = Self.lookupCommand(hostbookPath: hostbookPath, databasePath: databasePath, noInput: noInput)
        hostKeyLines = try? SSHConfigWriter.lines { try Self.writeHostKeyLines(&$0, command: command) }
    }

    /// The key part of a block: the agent's socket and the public key file.
    public struct Identity: Sendable {
        public let agentSocket: String
        public let publicKeyFile: String
        /// The key's user certificate, written by hostbook (ssh's CertificateFile; ssh signs
        /// with the agent's key for it), or nil.
        public let certificateFile: String?

        public init(agentSocket: String, publicKeyFile: String, certificateFile: String? = nil) {
            self.agentSocket = agentSocket
            self.publicKeyFile = publicKeyFile
            self.certificateFile = certificateFile
        }

        /// The IdentityFile: the public key file without its `.pub`. ssh loads `PATH.pub`
        /// when PATH does not exist (authfile.c `sshkey_load_public`), and when the agent
        /// does not offer the key (stopped or locked) it tries to read PATH as the private
        /// key (sshconnect2.c `load_identity_file`): naming the `.pub` file itself made ssh
        /// read the 0644 public key as a private one and print "UNPROTECTED PRIVATE KEY
        /// FILE!"; a PATH that does not exist is passed over.
        public var identityFile: String {
            publicKeyFile.hasSuffix(".pub") ? String(publicKeyFile.dropLast(4)) : publicKeyFile
        }
    }

    /// Starts the block for `host` and writes the lines both configurations share;
    /// `aliases` are more names on its Host line (the installed configuration's `Host devbox dev`).
    /// `knownHostsScript`: a session's SSHKnownHostsScript for the host, run by /bin/sh as
    /// KnownHostsCommand instead of hostbook (which it runs for every key it does not hold).
    /// `sshConfirmsFirstUse` (a session's hop that learns on its first use,
    /// SSHHostKeyRotation.learnsOnFirstUse): `StrictHostKeyChecking ask`, fingerprints in
    /// SHA-256 (the askpass reads ssh's question), `BatchMode no`, and the lookup with
    /// `--ssh-confirms`.
    public func write(_ w: inout SSHConfigWriter, host: Host, alias: String, aliases: [String] = [], jumpAlias: String?, identity: Identity?,
                      knownHostsScript: String? = nil, rotationFile: String? = nil, sshConfirmsFirstUse: Bool = false) throws {
        try w.host(alias, aliases: aliases)
        // ssh expands %h and %% in HostName (ssh.c, after reading the configuration), and a
        // saved hostname is literal: `fe80::1%eth0` (a zone index) would be a fatal unknown
        // token, a `%h` in it would become the alias. Doubled, ssh gets back exactly the
        // saved hostname, which is also the %h that KnownHostsCommand receives.
        try w.set("HostName", SSHConfigWriter.escapingPercent(host.hostname))
        try w.set("Port", String(host.port))
        if let user = host.user { try w.set("User", user) }
        if let jumpAlias { try w.set("ProxyJump", jumpAlias) }
        // Host keys: hostbook is the only authority (docs/openssh-behaviour.md,
        // "KnownHostsCommand").
        // ssh expands `%` tokens in the arguments but runs the program path as written
        // (sshconnect.c `load_hostkeys_command` expands from the second word on), so only
        // the arguments have `%` doubled: `/opt/100%/hostbook` stays as it is.
        if knownHostsScript == nil, rotationFile == nil, let hostKeyLines {
            w.append(hostKeyLines)
        } else {
            try Self.writeHostKeyLines(&w, command: knownHostsScript.map { [SSHKnownHostsScript.shell, $0] } ?? knownHostsCommand(sshConfirms: sshConfirmsFirstUse),
                                       rotationFile: rotationFile, sshConfirms: sshConfirmsFirstUse)
        }
        if let identity {
            try w.set("IdentityAgent", SSHConfigWriter.escapingPercent(identity.agentSocket))
            try w.set("IdentityFile", SSHConfigWriter.escapingPercent(identity.identityFile))
            if let certificate = identity.certificateFile { try w.set("CertificateFile", SSHConfigWriter.escapingPercent(certificate)) }
            try w.set("IdentitiesOnly", "yes")
            try w.set("AddKeysToAgent", "no")
        }
    }

    /// KnownHostsCommand (hostbook, or the session's script) and the settings that leave
    /// host keys to it alone. With `rotationFile` (a session's, SSHHostKeyRotation), ssh
    /// also reads that file, which holds exactly the entries the store trusts for the hop's
    /// name, and may update it (`UpdateHostKeys yes`); the decision for any key not in it is
    /// still KnownHostsCommand's.
    private static func writeHostKeyLines(_ w: inout SSHConfigWriter, command: [String], rotationFile: String? = nil, sshConfirms: Bool = false) throws {
        try w.set("KnownHostsCommand", words: [command[0]] + command.dropFirst().map(SSHConfigWriter.escapingPercent) + SSHHostKeyDecision.tokens)
        try w.set("UserKnownHostsFile", rotationFile.map(SSHConfigWriter.escapingPercent) ?? "none")
        try w.set("GlobalKnownHostsFile", "none")
        try w.set("StrictHostKeyChecking", sshConfirms ? "ask" : "yes")
        if sshConfirms {
            try w.set("FingerprintHash", "sha256")
            // ssh refuses its own question in batch mode (sshconnect.c confirm): the user's
            // `BatchMode yes` would end a first use they had just approved.
            try w.set("BatchMode", "no")
        }
        try w.set("UpdateHostKeys", rotationFile == nil ? "no" : "yes")
        try w.set("CheckHostIP", "no")
    }

    /// The host-key settings of a block (hostbook's KnownHostsCommand, no known_hosts
    /// files, StrictHostKeyChecking yes, ...) as ssh_config lines without their newline, for
    /// `ssh -o LINE` (git's GIT_SSH_COMMAND for a bundle repository: BundleGitSSH).
    public func hostKeyOptions() throws -> [String] {
        let lines = try SSHConfigWriter.lines { try Self.writeHostKeyLines(&$0, command: knownHostsCommand()) }
        return lines.text.split(separator: "\n").map(String.init)
    }

    /// hostbook's lookup command: program, options and command words (before ssh's tokens).
    /// `sshConfirms`: after approving an unknown key, the lookup prints nothing, so that ssh
    /// asks its own question (SSHFirstUseConfirmation answers it).
    public func knownHostsCommand(sshConfirms: Bool = false) -> [String] {
        Self.lookupCommand(hostbookPath: hostbookPath, databasePath: databasePath, noInput: noInput) + (sshConfirms ? ["--ssh-confirms"] : [])
    }

    private static func lookupCommand(hostbookPath: String, databasePath: String, noInput: Bool) -> [String] {
        [hostbookPath, "--db", databasePath] + (noInput ? ["--no-input"] : []) + ["known-hosts", "lookup"]
    }
}
