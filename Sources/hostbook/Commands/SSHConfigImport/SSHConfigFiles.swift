// The files an ssh_config import reads, as ssh reads them: whole files, glob(3) with
// GLOB_TILDE for Include (`~` from $HOME), and ssh's ownership rule for user configuration
// (owned by the user or root, not writable by group or others), reported instead of
// refused. Nothing is ever written.
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import SSHConfig

final class SSHConfigFiles {
    let home: String
    /// Files ssh would refuse for their owner or mode (path, reason).
    private(set) var permissionProblems: [(path: String, reason: String)] = []

    init(home: String) { self.home = home }

    struct Unreadable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    static let maxSize = 64 << 20

    var access: SSHConfigFileAccess {
        SSHConfigFileAccess(read: { [self] path in try self.read(path) }, glob: { [self] pattern in self.glob(pattern) })
    }

    func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Unreadable(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw Unreadable(reason: "it is a folder") }
            if info.st_uid != getuid() && info.st_uid != 0 {
                permissionProblems.append((path, "owned by another user"))
            } else if info.st_mode & 0o022 != 0 {
                permissionProblems.append((path, "writable by group or others"))
            }
        }
        var out: [UInt8] = []
        if info.st_size > 0 { out.reserveCapacity(Int(info.st_size)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Unreadable(reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            out += buffer[0..<n]
            if out.count > Self.maxSize { throw Unreadable(reason: "it is larger than 64 MiB") }
        }
        return out
    }

    /// glob(3) as ssh calls it: sorted matches, none when nothing matches.
    func glob(_ pattern: String) -> [String] { SSHConfigGlob.expand(pattern, home: home) }

    /// The public half of an IdentityFile: `PATH.pub` when present, else the private key
    /// itself when it is not encrypted. Nil with the reason otherwise. Cached per path.
    private var publicHalves: [String: (fingerprint: String?, problem: String?)] = [:]

    func publicHalf(_ path: String) -> (fingerprint: String?, problem: String?) {
        if let cached = publicHalves[path] { return cached }
        let result = SSHConfigIdentityKeys.publicHalf(path)
        publicHalves[path] = result
        return result
    }

    /// The local user's name and this machine's name (for `%u`, `%l`, Match localuser).
    static var localUser: String {
        guard let pw = getpwuid(getuid()) else { return String(getuid()) }
        return String(cString: pw.pointee.pw_name)
    }

    static var localHostName: String {
        var buf = [UInt8](repeating: 0, count: 256)
        let ok = buf.withUnsafeMutableBytes { gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), 255) } == 0
        guard ok else { return "localhost" }
        return String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self)
    }
}
