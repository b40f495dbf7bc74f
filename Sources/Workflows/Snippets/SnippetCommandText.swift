// A snippet's command as given: bytes (an argument's exactly as they were in argv, so invalid
// UTF-8 is refused rather than silently repaired, or all of standard input less exactly one
// trailing newline), then the rules of SnippetRules, and the kinds of secret it looks like
// it holds (SecretHeuristics) for the program to warn about.
import HostStore
import System

public enum SnippetCommandText {
    /// More than this on standard input is refused without keeping it.
    public static let stdinLimit = 1 << 20

    /// The command checked by SnippetRules, and what secrets it seems to hold.
    public static func checked(_ bytes: [UInt8]) throws -> (command: String, secrets: [SecretHeuristics.Finding]) {
        let command = try SnippetRules.command(bytes)
        return (command, SecretHeuristics.findings(in: command))
    }

    /// All of stdin as bytes, less exactly one trailing "\n" (a "\r" before it stays, and
    /// is refused as a control character).
    public static func readStandardInput() throws -> [UInt8] {
        var bytes: [UInt8]
        do { bytes = try FileDescriptor.standardInput.readToEnd(limit: stdinLimit) } catch {
            switch error {
            case .system(let why): throw SnippetsRefusal.commandUnreadable(reason: "\(why)")
            case .tooLong: throw SnippetsRefusal.commandTooLong
            }
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }
}
