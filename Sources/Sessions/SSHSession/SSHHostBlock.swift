// One saved host as an ssh_config `Host` block: what `hostbook ssh`'s session
// configuration and the installed configuration (`hostbook ssh-config`) both say about
// it — HostName, Port, User, ProxyJump by alias, hostbook as the only authority on host
// keys (KnownHostsCommand, no known_hosts files, StrictHostKeyChecking yes, UpdateHostKeys
// no; in a session, a hop that learns its rotation has its own known_hosts file of the
// entries the store trusts for it and UpdateHostKeys yes: SSHHostKeyRotation), and the agent
// with the host's public key file as its IdentityFile (and the key's certificate as its
// CertificateFile). The session writes it as one block (`write`); the installed
// configuration in two parts, each host's own lines (`writeOwn`) and the lines every host
// shares (`sharedLines`), written once per group of names (StandingSSHConfig).
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
        hostKeyLines = try? SSHConfigWriter.lines { try Self.writeHostKeyLines(&$0, command: command, knownHostsFile: .none) }
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
        try Self.writeHost(&w, host: host, alias: alias, aliases: aliases, jumpAlias: jumpAlias)
        // Host keys: hostbook is the only authority (docs/openssh-behaviour.md,
        // "KnownHostsCommand").
        if knownHostsScript == nil, rotationFile == nil, !sshConfirmsFirstUse, let hostKeyLines {
            w.append(hostKeyLines)
        } else {
            try Self.writeHostKeyLines(&w, command: knownHostsScript.map { [SSHKnownHostsScript.shell, $0] } ?? knownHostsCommand(sshConfirms: sshConfirmsFirstUse),
                                       knownHostsFile: rotationFile.map { .file($0) } ?? .none, sshConfirms: sshConfirmsFirstUse)
        }
        if let identity {
            try w.set("IdentityAgent", SSHConfigWriter.escapingPercent(identity.agentSocket))
            try Self.writeIdentityFiles(&w, identity)
        }
    }

    /// The lines of the installed configuration's block that are the host's own (StandingSSHConfig
    /// writes the lines every host shares once per group of names, `sharedLines`): the Host
    /// line, HostName, Port, User, ProxyJump, the host's known_hosts file for rotation when
    /// the shared lines' tokens do not name it, and
    /// the key's IdentityFile and CertificateFile with IdentitiesOnly and AddKeysToAgent.
    /// Together with the shared lines, ssh resolves the host exactly as from `write`'s block:
    /// every keyword is set in one of the two places only, so ssh's first-obtained-value-wins
    /// rule picks the same value.
    public func writeOwn(_ w: inout SSHConfigWriter, host: Host, alias: String, aliases: [String] = [], jumpAlias: String?, identity: Identity?,
                         rotationFile: String?) throws {
        try Self.writeHost(&w, host: host, alias: alias, aliases: aliases, jumpAlias: jumpAlias)
        if let rotationFile { try w.set("UserKnownHostsFile", SSHConfigWriter.escapingPercent(rotationFile)) }
        if let identity { try Self.writeIdentityFiles(&w, identity) }
    }

    /// The lines every host of the installed configuration shares (after `writeOwn`'s): hostbook's
    /// KnownHostsCommand and the settings that leave host keys to it, and the standing agent
    /// as IdentityAgent. `rotationTokens`: the known_hosts files for rotation as one
    /// UserKnownHostsFile value in ssh's `%` tokens, written as it is (`UpdateHostKeys yes`;
    /// a host whose own lines name its file keeps that one: the first value ssh obtains
    /// wins); nil: `UserKnownHostsFile none`, `UpdateHostKeys no`.
    public func sharedLines(rotationTokens: String?, agentSocket: String) throws -> SSHConfigLines {
        try SSHConfigWriter.lines { w in
            try Self.writeHostKeyLines(&w, command: knownHostsCommand(), knownHostsFile: rotationTokens.map { .tokens($0) } ?? .none)
            try w.set("IdentityAgent", SSHConfigWriter.escapingPercent(agentSocket))
        }
    }

    /// The Host line and where the host is: HostName, Port, User, ProxyJump.
    private static func writeHost(_ w: inout SSHConfigWriter, host: Host, alias: String, aliases: [String], jumpAlias: String?) throws {
        try w.host(alias, aliases: aliases)
        // ssh expands %h and %% in HostName (ssh.c, after reading the configuration), and a
        // saved hostname is literal: `fe80::1%eth0` (a zone index) would be a fatal unknown
        // token, a `%h` in it would become the alias. Doubled, ssh gets back exactly the
        // saved hostname, which is also the %h that KnownHostsCommand receives.
        try w.set("HostName", SSHConfigWriter.escapingPercent(host.hostname))
        try w.set("Port", String(host.port))
        if let user = host.user { try w.set("User", user) }
        if let jumpAlias { try w.set("ProxyJump", jumpAlias) }
    }

    /// The key's files: IdentityFile, CertificateFile, and only that key (IdentitiesOnly,
    /// AddKeysToAgent no).
    private static func writeIdentityFiles(_ w: inout SSHConfigWriter, _ identity: Identity) throws {
        try w.set("IdentityFile", SSHConfigWriter.escapingPercent(identity.identityFile))
        if let certificate = identity.certificateFile { try w.set("CertificateFile", SSHConfigWriter.escapingPercent(certificate)) }
        try w.set("IdentitiesOnly", "yes")
        try w.set("AddKeysToAgent", "no")
    }

    /// The known_hosts file ssh is given beside KnownHostsCommand.
    private enum KnownHostsFile {
        /// None (`UserKnownHostsFile none`, `UpdateHostKeys no`).
        case none
        /// The file for rotation (`UpdateHostKeys yes`).
        case file(String)
        /// The files for rotation, named with ssh's `%` tokens, written as they are (`UpdateHostKeys yes`).
        case tokens(String)
    }

    /// KnownHostsCommand (hostbook, or the session's script) and the settings that leave
    /// host keys to it alone. With a rotation file (a session's, SSHHostKeyRotation; the
    /// installed configuration's KeptKnownHosts), ssh also reads that file, which holds
    /// exactly the entries the store trusts for the hop's name, and may update it
    /// (`UpdateHostKeys yes`); the decision for any key not in it is still KnownHostsCommand's.
    private static func writeHostKeyLines(_ w: inout SSHConfigWriter, command: [String], knownHostsFile: KnownHostsFile, sshConfirms: Bool = false) throws {
        // ssh expands `%` tokens in the arguments but runs the program path as written
        // (sshconnect.c `load_hostkeys_command` expands from the second word on), so only
        // the arguments have `%` doubled: `/opt/100%/hostbook` stays as it is.
        try w.set("KnownHostsCommand", words: [command[0]] + command.dropFirst().map(SSHConfigWriter.escapingPercent) + SSHHostKeyDecision.tokens)
        switch knownHostsFile {
        case .none: try w.set("UserKnownHostsFile", "none")
        case .file(let path): try w.set("UserKnownHostsFile", SSHConfigWriter.escapingPercent(path))
        case .tokens(let value): try w.set("UserKnownHostsFile", value)
        }
        try w.set("GlobalKnownHostsFile", "none")
        try w.set("StrictHostKeyChecking", sshConfirms ? "ask" : "yes")
        if sshConfirms {
            try w.set("FingerprintHash", "sha256")
            // ssh refuses its own question in batch mode (sshconnect.c confirm): the user's
            // `BatchMode yes` would end a first use they had just approved.
            try w.set("BatchMode", "no")
        }
        if case .none = knownHostsFile { try w.set("UpdateHostKeys", "no") } else { try w.set("UpdateHostKeys", "yes") }
        try w.set("CheckHostIP", "no")
    }

    /// The host-key settings of a block (hostbook's KnownHostsCommand, no known_hosts
    /// files, StrictHostKeyChecking yes, ...) as ssh_config lines without their newline, for
    /// `ssh -o LINE` (git's GIT_SSH_COMMAND for a bundle repository: BundleGitSSH).
    public func hostKeyOptions() throws -> [String] {
        let lines = try SSHConfigWriter.lines { try Self.writeHostKeyLines(&$0, command: knownHostsCommand(), knownHostsFile: .none) }
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
