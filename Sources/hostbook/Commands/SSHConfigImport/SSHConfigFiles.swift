// The files an ssh_config import reads, as ssh reads them: whole files, glob(3) with
// GLOB_TILDE for Include (`~` from $HOME), and ssh's ownership rule for user configuration
// (owned by the user or root, not writable by group or others), reported instead of
// refused. Only regular files are read (RegularFile): a FIFO or device an Include matches
// would hold the import for ever, so it is passed over as empty and reported. Nothing is
// ever written.
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System
import SSHConfig

final class SSHConfigFiles {
    let home: String
    /// Files ssh would refuse for their owner or mode (path, reason).
    private(set) var permissionProblems: [(path: String, reason: String)] = []
    /// Files not read because they are not regular files (path, why), in the order met.
    private(set) var notRegular: [(path: String, reason: String)] = []

    init(home: String) { self.home = home }

    struct Unreadable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// One file may be as large as a whole load (SSHConfigLoader bounds the sum).
    static let maxSize = SSHConfigLoadLimits.standard.bytes

    var access: SSHConfigFileAccess {
        SSHConfigFileAccess(read: { [self] path in try self.read(path) }, glob: { [self] pattern in self.glob(pattern) })
    }

    /// The bytes of `path`; nothing (and a `notRegular` entry) when it is a FIFO, a device
    /// or a socket.
    func read(_ path: String) throws -> [UInt8] {
        let fd: Int32
        let info: stat
        do {
            (fd, info) = try RegularFile.open(path)
        } catch {
            switch error {
            case .notRegular(let mode) where mode & S_IFMT == S_IFDIR: throw Unreadable(reason: "it is a folder")
            case .notRegular: notRegular.append((path, error.description)); return []
            case .system(let why): throw Unreadable(reason: why)
            }
        }
        defer { close(fd) }
        if info.st_uid != getuid() && info.st_uid != 0 {
            permissionProblems.append((path, "owned by another user"))
        } else if info.st_mode & 0o022 != 0 {
            permissionProblems.append((path, "writable by group or others"))
        }
        do { return try FileDescriptor(fd).readToEnd(limit: Self.maxSize) } catch {
            switch error {
            case .system(let why): throw Unreadable(reason: why.description)
            case .tooLong: throw Unreadable(reason: "it is larger than \(Self.maxSize >> 20) MiB")
            }
        }
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
