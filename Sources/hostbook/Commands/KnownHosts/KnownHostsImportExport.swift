// `hostbook known-hosts import [FILE]` and `export [--hashed]`: OpenSSH known_hosts files
// in and out (docs/formats.md, "known_hosts").
import CommandLineKit
import System
import HostStore
import KeyFormats
import Workflows

enum KnownHostsImport {
    static let spec = CommandSpec(
        ["known-hosts", "import"], summary: "Import an OpenSSH known_hosts file",
        discussion: """
        Reads FILE (default ~/.ssh/known_hosts; '-' for stdin): plain and hashed names, patterns, \
        @cert-authority and @revoked lines. A bad line is reported with its number and skipped; \
        entries already stored are counted as duplicates.
        """,
        positionals: [.optional("FILE", "The known_hosts file", completes: .files)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let path = inv.args.positional(0) ?? inv.homeDirectory + "/.ssh/known_hosts"
        let bytes = try FileBytes.read(path)
        let progress = inv.progress("Importing \(path == "-" ? "known_hosts from stdin" : path)")
        let report = try KnownHostsAccess.mappingErrors {
            defer { progress.finish() }
            return try KnownHostsEditing.importFile(bytes, in: inv.workspace) { lines, done, total in
                progress.update(done: lines, of: nil, unit: "lines", fraction: total > 0 ? Double(done) / Double(total) : nil)
            }
        }
        let warnings = WarningSink(warn: inv.warn, one: "line skipped", many: "lines skipped")
        for bad in report.skipped {
            warnings.warn("\(path == "-" ? "stdin" : path):\(bad.line): \(bad.reason); line skipped")
        }
        warnings.finish()
        if inv.json {
            inv.printJSON(.object([
                ("imported", .int(report.imported)), ("duplicates", .int(report.duplicates)),
                ("skipped", .array(report.skipped.map { .object([("line", .int($0.line)), ("reason", .string($0.reason))]) })),
            ]))
        } else {
            func n(_ c: Int, _ one: String, _ many: String) -> String { "\(c) \(c == 1 ? one : many)" }
            inv.print("Imported \(n(report.imported, "entry", "entries")), \(n(report.duplicates, "duplicate", "duplicates")), skipped \(n(report.skipped.count, "bad line", "bad lines")).")
        }
    }
}

enum KnownHostsExport {
    static let spec = CommandSpec(
        ["known-hosts", "export"], summary: "Write the trusted keys as an OpenSSH known_hosts file",
        discussion: """
        Prints a file that ssh accepts as UserKnownHostsFile and 'ssh-keygen -F' reads. With --hashed \
        each plain name is hashed like 'ssh-keygen -H' (patterns and marker lines stay readable).
        """,
        options: [.flag(.hashed, "Hash each plain host name (|1|salt|hash)")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let text = try KnownHostsAccess.mappingErrors { try KnownHostsQueries.export(hashed: inv.args.flag(.hashed), in: inv.workspace) }
        // Each line escaped like any printed text (a comment from an imported file could
        // hold ESC); the line breaks between them are the file's own.
        inv.write(text.split(separator: "\n").map { line -> TerminalText in "\(line)\n" }.joined())
    }
}
