// A secret typed into the SSH_ASKPASS program, as ssh asks a security key's PIN through it
// (readpass.c ssh_askpass: the prompt as the only argument, the answer on its stdout up to
// the first newline). The answer is read straight into secure memory; the program's exit
// status 0 is required, and a timeout or no program is nil.
#if canImport(Glibc)
import Glibc
#endif
public import SecureMemory
import System

public enum AskpassSecret {
    /// The longest answer read (a PIN is at most 63 bytes in CTAP2).
    static let limit = 256

    /// What the askpass in `environment` (SSH_ASKPASS) answers to `prompt`; nil when there
    /// is none, it fails, or does not answer within `timeoutSeconds`.
    public static func ask(_ prompt: String, environment: [String: String], timeoutSeconds: Int = 120) -> SecretBytes? {
        guard let program = environment["SSH_ASKPASS"], !program.isEmpty,
              let path = ExecutablePath.find(program, searchPath: environment["PATH"]) else { return nil }
        guard let pipe = try? UnixPipe() else { return nil }
        var environment = environment
        environment["SSH_ASKPASS_PROMPT"] = nil    // a question with an answer, not a confirmation
        let env = Spawn.Options.environment(environment)
        let options = Spawn.Options(fileActions: Spawn.Options.nullInput() + [.duplicate(pipe.writeEnd, to: STDOUT_FILENO)],
                                    defaultSignals: [SIGPIPE], environment: env)
        guard let pid = try? Spawn.start(path, [program, prompt], options) else { pipe.close(); return nil }
        close(pipe.writeEnd)
        defer { close(pipe.readEnd) }
        let answer = SecretBytes(count: limit)
        var got = 0
        var fds = [pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)]
        let deadline = Monotonic.milliseconds() + Int64(timeoutSeconds) * 1000
        reading: while got < limit {
            let left = deadline - Monotonic.milliseconds()
            guard left > 0, let ready = try? Poll.wait(&fds, timeoutMilliseconds: Int32(min(left, Int64(Int32.max)))) else {
                kill(pid, SIGKILL)
                _ = WaitStatus.wait(pid)
                return nil
            }
            if ready == 0 { continue }
            let n = answer.withUnsafeMutableBytes { raw in
                (try? FileDescriptor(pipe.readEnd).read(into: UnsafeMutableRawBufferPointer(rebasing: raw[got...]))) ?? 0
            }
            if n == 0 { break reading }
            got += n
        }
        guard WaitStatus.wait(pid) == .exited(0) else { return nil }
        // Up to the first newline.
        let length = answer.withUnsafeBytes { raw in raw[0..<got].firstIndex(where: { $0 == 0x0a || $0 == 0x0d }) ?? got }
        return answer.slice(0..<length)
    }
}
