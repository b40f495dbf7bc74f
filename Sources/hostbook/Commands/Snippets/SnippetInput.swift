// Where a snippet's command comes from: `--command TEXT` (the argument's raw bytes, so
// invalid UTF-8 is refused rather than silently repaired) or `--command-stdin` (all of
// stdin, less exactly one trailing newline: SnippetCommandText). Then the rules of
// SnippetRules, and a warning when the command looks like it holds a secret.
import CommandLineKit
#if canImport(Glibc)
import Glibc
#endif
import Workflows

enum SnippetInput {
    /// The command given to this invocation, validated; nil when neither flag was given.
    static func command(_ inv: Invocation) throws -> String? {
        try inv.args.exclusive(.command, .commandStdin)
        let bytes: [UInt8]
        if let text = inv.args.value(.command) {
            bytes = rawArgument(for: "command") ?? Array(text.utf8)
        } else if inv.args.flag(.commandStdin) {
            bytes = try SnippetCommandText.readStandardInput()
        } else {
            return nil
        }
        let (command, kinds) = try SnippetCommandText.checked(bytes)
        if !kinds.isEmpty {
            inv.warn("the command looks like it contains \(kinds.map(\.rawValue).joined(separator: " and ")); it is stored anyway, but secrets belong in the vault")
        }
        return command
    }

    /// The bytes of `--NAME VALUE` or `--NAME=VALUE` exactly as they were in argv
    /// (CommandLine.arguments repairs invalid UTF-8, which would hide it from the rules).
    static func rawArgument(for name: String) -> [UInt8]? {
        let flag = Array(("--" + name).utf8)
        let argv = (0..<Int(CommandLine.argc)).map { i -> [UInt8] in
            guard let p = CommandLine.unsafeArgv[i] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
        var found: [UInt8]?
        var i = 1
        while i < argv.count {
            let a = argv[i]
            if a == Array("--".utf8) { break }
            if a == flag, i + 1 < argv.count {
                found = argv[i + 1]
                i += 2
                continue
            }
            if a.count > flag.count, Array(a[0..<flag.count]) == flag, a[flag.count] == UInt8(ascii: "=") {
                found = Array(a[(flag.count + 1)...])
            }
            i += 1
        }
        return found
    }
}
