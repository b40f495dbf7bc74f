// Terminal input: no-echo secret prompts (termios), visible line prompts, and reading a
// secret from stdin or a file straight into secure memory.
#if canImport(Glibc)
import Glibc
#endif
import System
import SecureMemory

enum Terminal {
    /// Largest secret read from stdin or a file (1 MiB): a passphrase or password, not a file dump.
    static let maxSecretSize = 1 << 20

    /// Signals that end hostbook while a no-echo prompt has the terminal: Ctrl-C, Ctrl-\\,
    /// a hang-up and `kill`. They are held back during the prompt and handled there, so the
    /// terminal gets its echo back before hostbook exits (128 + the signal, 130 for Ctrl-C).
    static let interruptingSignals: [Int32] = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]

    /// Prompts on stderr and reads one line from the terminal with echo off.
    static func readSecret(prompt: TerminalText) throws -> SecretBytes {
        var saved = termios()
        let fd = STDIN_FILENO
        let haveTermios = tcgetattr(fd, &saved) == 0
        // Blocked first, restored last: a signal that arrives while echo is off waits for
        // the read loop below, which restores the terminal (the defer) and then exits.
        var held = sigset_t()
        sigemptyset(&held)
        for s in interruptingSignals { sigaddset(&held, s) }
        var previousMask = sigset_t()
        if haveTermios { pthread_sigmask(SIG_BLOCK, &held, &previousMask) }
        defer { if haveTermios { pthread_sigmask(SIG_SETMASK, &previousMask, nil) } }
        if haveTermios {
            var noEcho = saved
            noEcho.c_lflag &= ~tcflag_t(ECHO)
            noEcho.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(fd, TCSAFLUSH, &noEcho)
        }
        defer {
            if haveTermios { _ = tcsetattr(fd, TCSAFLUSH, &saved) }
        }
        // The prompt comes after echo is off (and pending input flushed), as readpassphrase(3)
        // does: whatever is typed once the prompt shows is neither echoed nor discarded.
        Output.write(prompt, to: STDERR_FILENO)
        let secret = try readSecretLine(fd: fd, interruptedBy: haveTermios ? held : nil)
        if !haveTermios { Output.write("\n", to: STDERR_FILENO) }
        return secret
    }

    /// The first of `signals` (blocked by the caller) that is pending, taken off the pending
    /// set; nil when none is.
    static func takePendingSignal(among signals: [Int32] = interruptingSignals) -> Int32? {
        var pending = sigset_t()
        guard sigpending(&pending) == 0 else { return nil }
        for s in signals where sigismember(&pending, s) == 1 {
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, s)
            var taken: Int32 = 0
            _ = sigwait(&one, &taken)
            return s
        }
        return nil
    }

    /// Reads one line (without its newline) into secure memory, byte by byte, so nothing
    /// beyond the line is consumed and no copy of the secret is left in ordinary memory.
    /// With `interruptedBy` (signals blocked by the caller) the wait for each byte checks
    /// ten times a second whether one of them came, and ends the prompt if so.
    private static func readSecretLine(fd: Int32, interruptedBy signals: sigset_t?) throws -> SecretBytes {
        var buffer = SecretBytes(count: 256)
        var length = 0
        var byte: UInt8 = 0
        while true {
            if signals != nil {
                // A poll error other than a signal goes on to the read, which reports it.
                let ready = (try? Poll.wait(fd, events: Int16(POLLIN), timeoutMilliseconds: 100)) ?? true
                if let signal = takePendingSignal() {
                    Output.write("\n", to: STDERR_FILENO)
                    throw TerminalInterrupted(signal: signal)
                }
                if !ready { continue }
            }
            let n: Int
            do { n = try withUnsafeMutableBytes(of: &byte) { try FileDescriptor(fd).read(into: $0) } } catch {
                throw CLIError.failure("could not read from the terminal: \(error)")
            }
            if n == 0 { if length == 0 { throw CLIError.failure("no input (end of file at the prompt)") }; break }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if length == buffer.count {
                guard length < maxSecretSize else { throw CLIError.rejected("the input is longer than 1 MiB") }
                buffer = buffer.grown(to: buffer.count * 2, keeping: length)   // the old buffer is wiped when freed
            }
            buffer.withUnsafeMutableBytes { $0[length] = byte }
            length += 1
        }
        byte = 0
        return buffer.slice(0..<length)
    }

    /// Reads all of a file descriptor with read(2) straight into secure memory (growing by
    /// moving to a bigger secure buffer, so no copy is left behind) and removes one trailing newline
    /// (`\n` or `\r\n`), as `--password-stdin` and `--passphrase-file` promise.
    static func readSecretToEnd(fd: Int32, what: String) throws -> SecretBytes {
        var buffer = SecretBytes(count: 4096)
        var length = 0
        while true {
            if length == buffer.count {
                guard length < maxSecretSize else { throw CLIError.rejected("\(what) is longer than 1 MiB") }
                buffer = buffer.grown(to: buffer.count * 2, keeping: length)   // the old buffer is wiped when freed
            }
            let n: Int
            do { n = try buffer.withUnsafeMutableBytes { buf in try FileDescriptor(fd).read(into: UnsafeMutableRawBufferPointer(rebasing: buf[length...])) } } catch {
                throw CLIError.failure("could not read \(what): \(error)")
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
    static func readSecretFromStdin(what: String) throws -> SecretBytes {
        try readSecretToEnd(fd: STDIN_FILENO, what: what)
    }

    /// Reads a secret from a file (e.g. `--passphrase-file`).
    static func readSecretFile(_ path: String, what: String) throws -> SecretBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError.failure("cannot open \(what) file '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        return try readSecretToEnd(fd: fd, what: what)
    }

    /// Prompts on stderr and reads one visible line from stdin.
    static func readLine(prompt: TerminalText) throws -> String {
        Output.write(prompt, to: STDERR_FILENO)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard let n = try? withUnsafeMutableBytes(of: &byte, { try FileDescriptor.standardInput.read(into: $0) }) else {
                throw CLIError.failure("could not read from the terminal")
            }
            if n == 0 { if bytes.isEmpty { throw CLIError.failure("no input (end of file at the prompt)") }; break }
            if byte == UInt8(ascii: "\n") { break }
            if byte != UInt8(ascii: "\r") { bytes.append(byte) }
            if bytes.count > 65536 { throw CLIError.rejected("the answer is too long") }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " \t")
    }
}

/// A signal ended a no-echo prompt; the terminal is restored when this is thrown, and
/// hostbook exits with 128 + `signal` (130 for Ctrl-C), as a shell reports it.
struct TerminalInterrupted: Error {
    let signal: Int32
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
