// Passwords for `hostbook ssh` through SSH_ASKPASS. ssh runs this same binary as its
// askpass program, with `HOSTBOOK_ASKPASS_SESSION` holding only an identifier: the name of a
// private socket on which the parent hostbook (the one that started ssh, holding the
// passwords in secure memory) answers. An answer goes only to the hop that owns it: the
// helper's pid (SO_PEERCRED) leads through its parents to the ssh of one hop
// (ProcessAncestry), and only that hop's exact password prompt, `USER@HOST's password: `,
// is answered, once. ssh's prompt has no port, so a jump host and a target on the same
// address and user show the same prompt: the process tree tells them apart, and a helper
// whose hop cannot be told is refused. Every other prompt (passphrases, host-key
// questions, confirmations, PINs, a second password prompt after a wrong password) gets
// no answer and the helper exits non-zero. The program only starts the server for a
// session (SSHSession) and, run as the helper, calls `ask` (SSHAskpassTerminal).
//
// A session with a hop that learns on its first use also owns ssh's first-use question
// (`StrictHostKeyChecking ask`): the server answers it from the store
// (SSHFirstUseConfirmation), and, since ssh then sends every prompt to the askpass, the
// helper asks the terminal itself for any prompt the server does not own
// (`terminalVariable`), as ssh would have.
#if canImport(Glibc)
import Glibc
#endif
import System
import Agent
import HostStore
public import SecureMemory

public enum SSHAskpass {
    public static let sessionVariable = "HOSTBOOK_ASKPASS_SESSION"
    /// Set ("1") when the helper asks the terminal for a prompt the server does not own.
    public static let terminalVariable = "HOSTBOOK_ASKPASS_TERMINAL"
    static let socketPrefix = "askpass"

    /// The parent's side: one socket, the prompts it owns.
    public final class Server: @unchecked Sendable {
        private let server: UnixSocketServer
        public let identifier: String

        /// `passwords` is asked once, at the first prompt (it may wait for the vault).
        /// `confirmation`: answers ssh's first-use questions (a session with a first-use hop).
        public init(folder: String, passwords: @escaping @Sendable () -> [SSHPasswordAnswer],
                    confirmation: SSHFirstUseConfirmation? = nil) throws {
            let path = try PrivateSocketDirectory.uniquePath(in: folder, prefix: SSHAskpass.socketPrefix)
            identifier = String(path.dropFirst(folder.count + 1 + SSHAskpass.socketPrefix.count + 1).dropLast(".sock".count))
            let pending = Pending(passwords)
            self.pending = pending
            server = try UnixSocketServer(path: path) { connection in
                guard let frame = connection.readFrame(maxLength: 4096) else { return }
                let prompt = String(decoding: frame, as: UTF8.self)
                if let answer = confirmation?.answer(prompt) {
                    _ = connection.writeFrame([1] + Array(answer.utf8))
                    return
                }
                guard let password = pending.take(prompt, helper: connection.peer.pid) else {
                    _ = connection.writeFrame([0])
                    return
                }
                var reply = [UInt8](repeating: 1, count: password.count + 1)
                password.withUnsafeBytes { src in
                    reply.withUnsafeMutableBytes { dst in (dst.baseAddress! + 1).copyMemory(from: src.baseAddress!, byteCount: src.count) }
                }
                _ = connection.writeFrame(reply)
                Sodium.wipe(&reply)
            }
            try server.start()
        }

        private let pending: Pending

        /// The ssh that hostbook started: the root of the process tree the hops are read from.
        public func attach(sshPID: pid_t) { pending.attach(sshPID) }

        /// The saved hosts whose stored password was handed to ssh, in order.
        public var answered: [String] { pending.answered }

        public func stop() { server.stop() }
    }

    /// Each owned prompt is answered once, and only to its own hop.
    private final class Pending: @unchecked Sendable {
        private let source: @Sendable () -> [SSHPasswordAnswer]
        private var entries: [SSHPasswordAnswer]?
        private var sshPID: pid_t?
        private var answeredHosts: [String] = []
        private let lock = Lock()

        var answered: [String] { lock.locked { answeredHosts } }

        init(_ source: @escaping @Sendable () -> [SSHPasswordAnswer]) {
            self.source = source
        }

        func attach(_ pid: pid_t) {
            lock.locked { sshPID = pid }
        }

        func take(_ prompt: String, helper: pid_t) -> SecretBytes? {
            let root = lock.locked { sshPID }
            // The helper's parent is the asking ssh; its distance to the first ssh is its hop.
            guard let root, let asking = ProcessAncestry.parent(of: helper),
                  let hop = ProcessAncestry.distance(from: asking, to: root, limit: JumpChain.maxHosts) else { return nil }
            return lock.locked {
                if entries == nil { entries = source() }
                guard let i = entries!.firstIndex(where: { $0.hop == hop && $0.prompt == prompt }) else { return nil }
                let entry = entries!.remove(at: i)
                answeredHosts.append(entry.host)
                return entry.password
            }
        }
    }

    /// The prompt ssh shows for password authentication to `user` at `hostname`
    /// (readpass.c: HostName lower-cased unless it is an address; there is no HostKeyAlias).
    public static func passwordPrompt(user: String, hostname: String) -> String {
        "\(user)@\(hostname.lowercased())'s password: "
    }

    /// The answer of the session named in `environment` to `prompt`, in secure memory; nil
    /// when there is none (a confirmation or notification, no session, no socket, a prompt
    /// the server does not own for this process's hop).
    public static func ask(prompt: String, environment: [String: String]) -> SecretBytes? {
        // Confirmations (empty answer = yes) and notifications are never answered.
        if environment["SSH_ASKPASS_PROMPT"] != nil { return nil }
        guard let id = environment[sessionVariable], !id.isEmpty, id.utf8.allSatisfy({ isxdigit(Int32($0)) != 0 }),
              let folder = try? PrivateSocketDirectory.prepare(environment: environment) else { return nil }
        let path = folder + "/\(socketPrefix)-\(id).sock"
        guard let fd = try? UnixSocket.connect(to: path) else { return nil }
        defer { close(fd) }
        guard LengthPrefixedFrame.write(Array(prompt.utf8.prefix(4000)), to: fd),
              var reply = LengthPrefixedFrame.read(from: fd, minLength: 1, maxLength: 2048) else { return nil }
        defer { Sodium.wipe(&reply) }
        guard reply[0] == 1 else { return nil }
        return reply.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[1...])) }
    }
}

/// The stored password of one hop: its place in the chain (0 = the target), the saved
/// host's name, the prompt ssh shows for it, and the password in secure memory.
public struct SSHPasswordAnswer: Sendable {
    public let hop: Int
    public let host: String
    public let prompt: String
    public let password: SecretBytes

    public init(hop: Int, host: String, prompt: String, password: SecretBytes) {
        self.hop = hop
        self.host = host
        self.prompt = prompt
        self.password = password
    }
}
