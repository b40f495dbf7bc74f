// Where hostbook's sockets live: `$XDG_RUNTIME_DIR/hostbook` (a per-user tmpfs that only
// this user can write), else a folder made with mkdtemp in /tmp, `/tmp/hostbook-XXXXXXXX`,
// whose path is recorded in `$XDG_STATE_HOME/hostbook/socket-folder` (default
// ~/.local/state) so that every later hostbook of this user finds it again.
//
// Why not a fixed `/tmp/hostbook-UID`: /tmp is shared, and another local user who makes
// that folder first (or a link by that name) blocks `agent start` and `hostbook ssh` for
// good. An unpredictable name cannot be taken in advance, and the record lives in this
// user's own home. A recorded folder is used only while it is still a real folder (not a
// link) owned by this user; otherwise a new one is made and recorded.
#if canImport(Glibc)
import Glibc
#endif

public enum PrivateSocketDirectory {
    /// sun_path holds 108 bytes including the terminating NUL.
    public static let maxSocketPath = UnixSocket.maxPathLength

    /// The folder, created or checked.
    public static func prepare(environment: [String: String]) throws -> String {
        let uid = getuid()
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isOwnedFolder(runtime, uid: uid) {
            let folder = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/hostbook"
            do { try PrivateFolder.make(folder) } catch { throw SocketError("cannot create the folder \(error.path): \(error.errno)") }
            try checkPrivate(folder, uid: uid)
            return folder
        }
        return try recordedFolder(environment: environment, uid: uid)
    }

    /// The folder when it exists already and is private (a real folder of this user, closed
    /// to others; links are not followed): nothing is created or changed. For readers that
    /// only look for a socket someone else made (the headless keyring's bus).
    public static func existing(environment: [String: String]) -> String? {
        let uid = getuid()
        let folder: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isOwnedFolder(runtime, uid: uid) {
            folder = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/hostbook"
        } else {
            guard let record = try? recordPath(environment: environment), let recorded = readRecord(record) else { return nil }
            folder = recorded
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid,
              info.st_mode & 0o077 == 0 else { return nil }
        return folder
    }

    /// The file that names the /tmp folder: `$XDG_STATE_HOME/hostbook/socket-folder`.
    static func recordPath(environment: [String: String]) throws -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/hostbook/socket-folder" }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw SocketError("neither XDG_RUNTIME_DIR nor HOME is set, so there is no private place for hostbook's sockets; set XDG_RUNTIME_DIR")
        }
        return home + "/.local/state/hostbook/socket-folder"
    }

    private static func recordedFolder(environment: [String: String], uid: uid_t) throws -> String {
        let record = try recordPath(environment: environment)
        if let folder = readRecord(record), (try? checkPrivate(folder, uid: uid)) != nil { return folder }
        do { try PrivateFolder.make(ParentFolder.of(record)) } catch { throw SocketError("cannot create the folder \(error.path): \(error.errno)") }
        var template = Array("/tmp/hostbook-XXXXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SocketError.errno("cannot create a private folder in /tmp")
        }
        let folder = String(cString: made)
        // Replaced atomically: a reader sees the old path or the new one, never half of one.
        do {
            try AtomicFile.write(record, bytes: Array((folder + "\n").utf8), mode: 0o600, replace: true)
        } catch {
            rmdir(folder)
            switch error {
            case .io(let why): throw SocketError("cannot write \(record): \(why)")
            case .exists: throw SocketError("cannot write \(record)")
            }
        }
        return folder
    }

    /// The recorded path: one absolute line of at most 64 bytes in a file of this user.
    private static func readRecord(_ record: String) -> String? {
        let fd = open(record, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else { return nil }
        guard let buffer = try? FileDescriptor(fd).readPrefix(limit: 80) else { return nil }
        let n = buffer.count
        guard n > 1, n < 80, buffer[n - 1] == UInt8(ascii: "\n") else { return nil }
        let path = String(decoding: buffer[0..<(n - 1)], as: UTF8.self)
        guard path.hasPrefix("/tmp/hostbook-"), !path.contains("/.."), path.utf8.count < 64 else { return nil }
        return path
    }

    /// A real folder (not a link) of this user, closed to others (made so if it is not).
    private static func checkPrivate(_ folder: String, uid: uid_t) throws {
        var info = stat()
        guard lstat(folder, &info) == 0 else { throw SocketError.errno("cannot inspect \(folder)") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SocketError("\(folder) is not a folder; remove it and try again") }
        guard info.st_uid == uid else { throw SocketError("\(folder) belongs to another user; remove it and try again") }
        if info.st_mode & 0o077 != 0 {
            guard chmod(folder, 0o700) == 0 else { throw SocketError.errno("cannot make \(folder) private") }
        }
    }

    /// A fresh socket path in the folder, `PREFIX-<random>.sock`.
    public static func uniquePath(in folder: String, prefix: String) throws -> String {
        var random = [UInt8](repeating: 0, count: 8)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0, FileDescriptor(fd).readExactly(&random) else {
            if fd >= 0 { close(fd) }
            throw SocketError.errno("cannot read random bytes")
        }
        close(fd)
        let path = folder + "/\(prefix)-" + random.map { String($0, radix: 16).leftPadded(2) }.joined() + ".sock"
        guard path.utf8.count <= maxSocketPath else { throw SocketError("the socket path \(path) is longer than \(maxSocketPath) bytes") }
        return path
    }

    private static func isOwnedFolder(_ path: String, uid: uid_t) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == uid
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
