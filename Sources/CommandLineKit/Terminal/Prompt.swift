// Terminal input: no-echo secret prompts (System's SecretEntry), visible line prompts, and reading a
// secret from stdin or a file straight into secure memory. What goes wrong is a
// TerminalFailure, worded by the program.
import System
import SecureMemory

public enum Terminal {
    /// Largest secret read from stdin or a file (1 MiB): a passphrase or password, not a file dump.
    public static let maxSecretSize = 1 << 20

    /// Prompts on stderr and reads one line from the terminal with echo off (System's
    /// SecretEntry), into secure memory, so no copy of the secret is left in ordinary memory.
    /// A signal that ends the program while echo is off is thrown as TerminalInterrupted once
    /// the terminal has its echo back: the program then exits 128 + the signal (130 for Ctrl-C).
    public static func readSecret(prompt: TerminalText) throws -> SecretBytes {
        try SecretEntry.with { entry in
            // The prompt comes after echo is off (and pending input flushed), as readpassphrase(3)
            // does: whatever is typed once the prompt shows is neither echoed nor discarded.
            Output.write(prompt, to: FileDescriptor.standardError.rawValue)
            var buffer = SecretBytes(count: 256)
            var length = 0
            let end: SecretEntry.LineEnd
            do {
                end = try entry.readLine { byte in
                    if length == buffer.count {
                        guard length < maxSecretSize else { throw TerminalFailure.tooLong(what: nil) }
                        buffer = buffer.grown(to: buffer.count * 2, keeping: length)   // the old buffer is wiped when freed
                    }
                    buffer.withUnsafeMutableBytes { $0[length] = byte }
                    length += 1
                }
            } catch TerminalInputError.interrupted(let signal) {
                Output.write("\n", to: FileDescriptor.standardError.rawValue)
                throw TerminalInterrupted(signal: signal)
            } catch TerminalInputError.unreadable(let error) {
                throw TerminalFailure.unreadableTerminal(reason: "\(error)")
            }
            if end == .endOfInput && length == 0 { throw TerminalFailure.endOfInput }
            if !entry.echoIsOff { Output.write("\n", to: FileDescriptor.standardError.rawValue) }
            return buffer.slice(0..<length)
        }
    }

    /// Reads all of a file descriptor with read(2) straight into secure memory (growing by
    /// moving to a bigger secure buffer, so no copy is left behind) and removes one trailing newline
    /// (`\n` or `\r\n`), as `--password-stdin` and `--passphrase-file` promise.
    public static func readSecretToEnd(fd: Int32, what: String) throws -> SecretBytes {
        var buffer = SecretBytes(count: 4096)
        var length = 0
        while true {
            if length == buffer.count {
                guard length < maxSecretSize else { throw TerminalFailure.tooLong(what: what) }
                buffer = buffer.grown(to: buffer.count * 2, keeping: length)   // the old buffer is wiped when freed
            }
            let n: Int
            do { n = try buffer.withUnsafeMutableBytes { buf in try FileDescriptor(fd).read(into: UnsafeMutableRawBufferPointer(rebasing: buf[length...])) } } catch {
                throw TerminalFailure.unreadable(what: what, reason: "\(error)")
            }
            if n == 0 { break }
            length += n
        }
        var end = length
        buffer.withUnsafeBytes { b in
            if end > 0 && b[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if end > 0 && b[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        }
        return buffer.slice(0..<end)
    }

    /// Reads `--password-stdin` / `--passphrase-stdin` input; refuses an interactive terminal
    /// on stdin only when --no-input says not to wait.
    public static func readSecretFromStdin(what: String) throws -> SecretBytes {
        try readSecretToEnd(fd: FileDescriptor.standardInput.rawValue, what: what)
    }

    /// Reads a secret from a file (e.g. `--passphrase-file`).
    public static func readSecretFile(_ path: String, what: String) throws -> SecretBytes {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(forReading: path) } catch {
            throw TerminalFailure.cannotOpen(what: what, path: path, reason: "\(error)")
        }
        defer { file.close() }
        return try readSecretToEnd(fd: file.rawValue, what: what)
    }

    /// Prompts on stderr and reads one visible line from stdin.
    public static func readLine(prompt: TerminalText) throws -> String {
        Output.write(prompt, to: FileDescriptor.standardError.rawValue)
        let bytes: [UInt8]
        do throws(VisibleLine.Failure) { bytes = try VisibleLine.read(limit: 65536) } catch {
            switch error {
            case .endOfInput: throw TerminalFailure.endOfInput
            case .tooLong: throw TerminalFailure.answerTooLong
            case .unreadable: throw TerminalFailure.unreadableTerminal(reason: nil)
            }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " \t")
    }
}

/// A signal ended a no-echo prompt or a full-screen one; the terminal is restored when this
/// is thrown, and the program exits with 128 + `signal` (130 for Ctrl-C), as a shell reports it.
public struct TerminalInterrupted: Error {
    public let signal: Int32
    public init(signal: Int32) { self.signal = signal }
}

/// What went wrong reading from the terminal, a pipe or a file, or drawing on the terminal.
public enum TerminalFailure: Error, Sendable {
    /// A secret longer than `Terminal.maxSecretSize`; `what` names it (nil: typed at a prompt).
    case tooLong(what: String?)
    case answerTooLong
    /// The terminal could not be read (`reason`, when known).
    case unreadableTerminal(reason: String?)
    case unreadable(what: String, reason: String)
    /// End of file at a prompt, before anything was typed.
    case endOfInput
    case cannotOpen(what: String, path: String, reason: String)
    /// Raw mode could not be set.
    case unusable(reason: String)
    case cannotDraw(reason: String)
    /// The terminal ended (end of file, a hang-up) while a full-screen prompt waited.
    case closed
}

extension String {
    /// `self` without the characters of `set` at either end.
    public func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
