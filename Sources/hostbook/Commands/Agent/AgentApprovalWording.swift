// The agents' words (Sessions' AgentWording), given to the standing agent and to each
// `hostbook ssh` session agent when they start: the approval prompt, the grant's sentence,
// the lines the requester's terminal is told, and the process chain as the agent's log
// keeps it. Every field of a request that came from outside (a key or host name, a
// fingerprint, a namespace, a program and its command line) is escaped here, so a field
// cannot draw a line of its own (PrintableText).
import Sessions
import System

struct AgentApprovalWording: AgentWording {
    func prompt(_ request: ApprovalRequest) -> String { promptLines(request).joined(separator: "\n") }

    /// The lines of the prompt, each escaped.
    func promptLines(_ request: ApprovalRequest) -> [String] {
        let key = request.key
        var lines = ["Allow a signature with key \(key.name.escapedForTerminal)?",
                     "  key:         \(key.algorithm.escapedForTerminal) \(key.fingerprint.escapedForTerminal)"]
        switch request.destination {
        case .savedHosts(let hosts, let fingerprint):
            for host in hosts {
                lines.append("  destination: \(host.name.escapedForTerminal) (\(host.address.escapedForTerminal))")
            }
            lines.append("  host key:    \(fingerprint.escapedForTerminal)")
        case .unknownServer(let fingerprint):
            lines.append("  destination: a server hostbook does not know (host key \(fingerprint.escapedForTerminal))")
        case .none:
            // An SSHSIG signature (git, ssh-keygen -Y sign) goes to no server: its namespace
            // says what it is for.
            if request.subject.namespace == nil {
                lines.append("  destination: none (the client did not say which server the signature is for)")
            }
        }
        switch request.subject {
        case .userAuthentication(let user): lines.append("  signs:       a login as \(user.escapedForTerminal)")
        case .sshsig(let namespace):
            lines.append("  namespace:   \(namespace.escapedForTerminal)")
            lines.append("  signs:       an SSHSIG signature (ssh-keygen -Y sign, git commit -S)")
        case .unidentified: lines.append("  signs:       data that is neither a login nor an SSHSIG signature")
        }
        lines.append("  data:        \(request.dataDigest.escapedForTerminal)")
        if !request.forwardedThrough.isEmpty {
            lines.append("  forwarded through \(request.forwardedThrough.map(\.escapedForTerminal).joined(separator: ", "))")
        }
        lines.append("  program:     \(programText(request.program))")
        if request.chain.isEmpty { lines.append("  requested by: an unknown process") }
        for (i, process) in request.chain.enumerated() {
            lines.append("  \(i == 0 ? "requested by:" : "        from:") \(describe(process, verified: i == 0 ? .some(request.program) : nil))")
        }
        if request.isForwarded {
            lines.append("A forwarded request asks every time.")
        } else if request.program == nil {
            lines.append("An unknown program asks every time.")
        }
        return lines
    }

    func grantSentence(_ request: ApprovalRequest, choice: String) -> String? {
        guard request.mayGrant, let coverage = grantCoverage(request) else { return nil }
        return "\(choice) also allows, for \(ApprovalRequest.durationText(request.key.grantSeconds)) and without asking, every signature \(coverage)."
    }

    /// What a grant for this request covers, in words (the grant scope: key × destination ×
    /// program, with its script, × namespace), escaped; nil when no grant can be made.
    func grantCoverage(_ request: ApprovalRequest) -> String? {
        guard request.grantScope != nil else { return nil }
        var words = ["with key \(request.key.name.escapedForTerminal)"]
        switch request.destination {
        case .savedHosts(let hosts, let fingerprint):
            words.append("to \(hosts.map(\.name.escapedForTerminal).joined(separator: ", ")) (host key \(fingerprint.escapedForTerminal))")
        case .unknownServer(let fingerprint): words.append("to the server of host key \(fingerprint.escapedForTerminal)")
        case .none: if request.subject.namespace == nil { words.append("bound to no server") }
        }
        if let namespace = request.subject.namespace { words.append("in namespace \(namespace.escapedForTerminal)") }
        words.append("by \(programText(request.program))")
        return words.joined(separator: " ")
    }

    /// "hostbook: waiting for approval of 'KEY' → DESTINATION in APPROVER".
    func waitingNotice(_ request: ApprovalRequest, approver: ApproverName) -> String {
        let approverText = switch approver {
        case .agentApprove: "'hostbook agent approve'"
        case .askpass(let program): "SSH_ASKPASS (\(program.escapedForTerminal))"
        }
        return "hostbook: waiting for approval of '\(request.key.name.escapedForTerminal)' → \(noticeDestination(request)) in \(approverText)"
    }

    /// "hostbook: touch your security key for 'KEY' → DESTINATION".
    func touchNotice(_ request: ApprovalRequest) -> String {
        "hostbook: touch your security key for '\(request.key.name.escapedForTerminal)' → \(noticeDestination(request))"
    }

    func noApproverNotice(_ request: ApprovalRequest) -> String {
        "hostbook: refused: no approver; run 'hostbook agent approve' or set SSH_ASKPASS"
    }

    /// One process a line, as `describe` shows it.
    func processChain(_ chain: [RunningProcess]) -> String? {
        chain.isEmpty ? nil : chain.map { describe($0) }.joined(separator: "\n")
    }

    /// Where the signature goes, in a few words.
    func noticeDestination(_ request: ApprovalRequest) -> String {
        switch request.destination {
        case .savedHosts(let hosts, _): return hosts.map(\.name.escapedForTerminal).joined(separator: ", ")
        case .unknownServer: return "a server hostbook does not know"
        case .none:
            if let namespace = request.subject.namespace { return "namespace \(namespace.escapedForTerminal)" }
            return "no named server"
        }
    }

    /// The verified program: its executable, and the script of an interpreter.
    func programText(_ program: ProcessIdentity.Program?) -> String {
        guard let program else { return "unknown program (not identified: no grant is made for it)" }
        return program.executable.escapedForTerminal + (program.script.map { " running \($0.escapedForTerminal)" } ?? "")
    }

    /// `PID EXECUTABLE: COMMAND LINE`, escaped, the command line shortened to 200 characters.
    /// `verified`: for the client, its verified program (`.some(nil)`: unknown program),
    /// shown instead of what /proc says now.
    func describe(_ p: RunningProcess, verified: ProcessIdentity.Program?? = nil) -> String {
        var command = p.arguments.joined(separator: " ")
        if command.count > 200 { command = String(command.prefix(200)) + "…" }
        let executable: String = switch verified {
        case .some(.some(let program)): program.executable
        case .some(.none): "unknown program"
        case .none: p.executable ?? "?"
        }
        return "pid \(p.pid) \(executable.escapedForTerminal): \(command.escapedForTerminal)"
    }
}
