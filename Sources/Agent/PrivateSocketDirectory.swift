// Where hostbook's sockets live: `$XDG_RUNTIME_DIR/hostbook` (a per-user tmpfs), else
// `/tmp/hostbook-UID`. The folder is created 0700; an existing one must be a real folder
// (not a symlink) owned by this user and closed to others, or nothing is put in it.
#if canImport(Glibc)
import Glibc
#endif

public struct SocketError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
    static func errno(_ what: String) -> SocketError { SocketError("\(what): \(String(cString: strerror(Glibc.errno)))") }
}

public enum PrivateSocketDirectory {
    /// sun_path holds 108 bytes including the terminating NUL.
    public static let maxSocketPath = 107

    /// The folder, created or checked.
    public static func prepare(environment: [String: String]) throws -> String {
        let uid = getuid()
        let folder: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isOwnedPrivateFolder(runtime, uid: uid) {
            folder = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/hostbook"
        } else {
            folder = "/tmp/hostbook-\(uid)"
        }
        if mkdir(folder, 0o700) != 0 && Glibc.errno != EEXIST { throw SocketError.errno("cannot create the folder \(folder)") }
        var info = stat()
        guard lstat(folder, &info) == 0 else { throw SocketError.errno("cannot inspect \(folder)") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SocketError("\(folder) is not a folder; remove it and try again") }
        guard info.st_uid == uid else { throw SocketError("\(folder) belongs to another user; remove it and try again") }
        if info.st_mode & 0o077 != 0 {
            guard chmod(folder, 0o700) == 0 else { throw SocketError.errno("cannot make \(folder) private") }
        }
        return folder
    }

    /// A fresh socket path in the folder, `PREFIX-<random>.sock`.
    public static func uniquePath(in folder: String, prefix: String) throws -> String {
        var random = [UInt8](repeating: 0, count: 8)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0, read(fd, &random, random.count) == random.count else {
            if fd >= 0 { close(fd) }
            throw SocketError.errno("cannot read random bytes")
        }
        close(fd)
        let path = folder + "/\(prefix)-" + random.map { String($0, radix: 16).leftPadded(2) }.joined() + ".sock"
        guard path.utf8.count <= maxSocketPath else { throw SocketError("the socket path \(path) is longer than \(maxSocketPath) bytes") }
        return path
    }

    private static func isOwnedPrivateFolder(_ path: String, uid: uid_t) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == uid
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
