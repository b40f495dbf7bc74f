// `hostbook doctor`: checks the database and the vault, says how to fix each finding.
// Exit 0 when healthy, 1 when something is wrong. The checks are Workflows' (Doctor/:
// `DoctorChecks.all`, then the ssh client's and the installed ssh configuration's, which the
// program hands this program's paths and the agent's socket), worded by
// Commands/Doctor/DoctorWording.swift.
import CommandLineKit
import HostStore
import Workflows

enum DoctorCommand {
    static let all: [CommandSpec] = [spec]

    static let spec = CommandSpec(
        ["doctor"], summary: "Check the database and the vault, and say how to fix problems",
        discussion: """
        Checks the database (SQLite integrity, schema version, foreign keys, file modes) and
        the vault (items with no database row, and hosts or keys whose secret is missing), and
        keys restricted to namespaces (SSHSIG only) that saved hosts still log in with.
        Changes nothing. Exit 0 when healthy, 1 when something is wrong.
        """,
        run: run)

    static func run(_ inv: Invocation) throws {
        let context = DoctorContext(workspace: inv.workspace)
        var result = DoctorResult()
        let installed = InstalledSSHConfigCheck(workspace: inv.workspace, programs: { try InstalledConfigRefresh.programs(inv) },
                                                agentSocket: { try? StandingAgentSocket.defaultPath(environment: inv.environment) },
                                                runningAgent: StandingAgentSocket.runningAgent(at:))
        let observations = DoctorChecks.run(context) + SSHClientCheck(environment: inv.environment).run() + installed.run()
        for observation in observations { result.add(observation) }
        let (findings, notes) = (result.findings, result.notes)
        if inv.json {
            inv.printJSON(.object([
                ("healthy", .bool(findings.isEmpty)),
                ("database", .string(context.path)),
                ("schema_version", .optional(context.report.schemaVersion)),
                ("findings", .array(findings.map { f in
                    .object([("check", .string(f.check)), ("severity", .string(f.severity.rawValue)),
                             ("message", .string(f.message)), ("fix", .string(f.fix))])
                })),
            ]))
        } else {
            for n in notes { inv.print("\(n)") }
            for f in findings {
                inv.print("\(f.severity.rawValue): \(f.message)")
                inv.print("  fix: \(f.fix)")
            }
            inv.print(findings.isEmpty ? "No problems found." : "\(findings.count) problem\(findings.count == 1 ? "" : "s") found.")
        }
        if !findings.isEmpty { throw ExitStatus(code: .failure) }
    }
}
