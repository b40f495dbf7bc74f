// The ssh_config of one `hostbook ssh` session (openssh-integration.md §6.2–§6.5): a Host
// block for the target and one for each jump host, each with its own HostName, Port,
// User, ProxyJump (by alias), key and host-key settings; then `Match all` and the user's
// own configuration, which supplies everything hostbook does not set (the first value
// ssh obtains wins, so hostbook's blocks come first).
import SSHConfig

struct SSHSessionConfig {
    /// Paths the blocks point at: the agent socket, and each hop's public key file.
    struct Paths {
        var agentSocket: String?
        var publicKeyFiles: [String: String] = [:]
    }

    /// hostbook itself as KnownHostsCommand: absolute program path and database path.
    let hostbookPath: String
    let databasePath: String
    /// Passed on to KnownHostsCommand: never prompt for an unknown host key.
    let noInput: Bool

    func render(_ plan: SSHPlan, paths: Paths) throws -> String {
        var w = SSHConfigWriter()
        do {
            for hop in plan.hops { try block(&w, hop, plan: plan, paths: paths) }
            w.matchAll()
            try w.set("Include", "~/.ssh/config")
            try w.set("Include", "/etc/ssh/ssh_config")
        } catch let e as SSHConfigWriterError {
            throw CLIError.failure("cannot write the ssh configuration: \(e.description.escapedForTerminal)",
                                   hint: "Rename the host (hostbook edit NAME --rename NEW) to a plain name.")
        }
        return w.text
    }

    private func block(_ w: inout SSHConfigWriter, _ hop: SSHHop, plan: SSHPlan, paths: Paths) throws {
        let host = hop.host
        try w.host(hop.alias)
        try w.set("HostName", host.hostname)
        try w.set("Port", String(host.port))
        if let user = host.user { try w.set("User", user) }
        if let jump = hop.jumpAlias { try w.set("ProxyJump", jump) }
        // Host keys: hostbook is the only authority (§2.3).
        try w.set("KnownHostsCommand", words: knownHostsCommand().map(SSHConfigWriter.escapingPercent) + SSHHostKeyLookup.tokens)
        try w.set("UserKnownHostsFile", "none")
        try w.set("GlobalKnownHostsFile", "none")
        try w.set("StrictHostKeyChecking", "yes")
        try w.set("UpdateHostKeys", "no")
        try w.set("CheckHostIP", "no")
        if !hop.hostKeyAlgorithms.isEmpty { try w.set("HostKeyAlgorithms", "^" + hop.hostKeyAlgorithms.joined(separator: ",")) }
        if hop.key != nil, let socket = paths.agentSocket, let file = paths.publicKeyFiles[hop.alias] {
            try w.set("IdentityAgent", SSHConfigWriter.escapingPercent(socket))
            try w.set("IdentityFile", SSHConfigWriter.escapingPercent(file))
            try w.set("IdentitiesOnly", "yes")
            try w.set("ForwardAgent", "no")
            try w.set("AddKeysToAgent", "no")
        }
        if hop.hasPassword {
            try w.set("PreferredAuthentications", hop.key != nil ? "publickey,password" : "password")
            try w.set("PasswordAuthentication", "yes")
            try w.set("KbdInteractiveAuthentication", "no")
            try w.set("NumberOfPasswordPrompts", "1")
        }
    }

    private func knownHostsCommand() -> [String] {
        [hostbookPath, "--db", databasePath] + (noInput ? ["--no-input"] : []) + ["known-hosts", "lookup"]
    }
}
