// The files one `hostbook ssh` session hands to ssh: the generated configuration (-F) and
// each hop's public key (its IdentityFile). They live in a folder of their own, made with
// mkdtemp inside hostbook's private socket folder (0700, this user's), and the folder is
// removed when the session ends. None of them is secret: the private keys stay in the
// session's agent and the passwords in the askpass server.
//
// Why not an in-memory file read as /proc/PID/fd/N: hostbook is not dumpable
// (ProcessProtection), so the kernel makes its /proc/PID/fd entries root's, and an
// ordinary user's ssh cannot open them. `-F /dev/fd/N` does not work either: ssh closes
// the descriptors it inherits before it reads its configuration.
#if canImport(Glibc)
import Glibc
#endif
import System

public final class SessionFolder {
    public let path: String
    private var files: [String] = []

    /// Makes `PARENT/session-XXXXXX`, 0700.
    public init(in parent: String) throws(SSHSessionRefusal) {
        var template = Array((parent + "/session-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .sessionFolderNotCreated(parent: parent, reason: String(cString: strerror(errno)))
        }
        path = String(cString: made)
    }

    /// Writes a new file `name` (0600, never an existing file or a link) and returns its path.
    public func write(_ name: String, _ contents: [UInt8]) throws(SSHSessionRefusal) -> String {
        let file = path + "/" + name
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .fileNotCreated(path: file, reason: String(cString: strerror(errno))) }
        files.append(file)
        defer { close(fd) }
        do { try FileDescriptor(fd).writeAll(contents) } catch {
            throw .fileNotWritten(path: file, reason: "\(error)")
        }
        return file
    }

    /// The contents of `name`'s file as it is now (ssh may have replaced it: a rotation's
    /// known_hosts file), at most `limit` bytes; nil when it cannot be read.
    public func read(_ file: String, limit: Int = 1 << 20) -> [UInt8]? {
        guard let (fd, _) = try? RegularFile.open(file) else { return nil }
        defer { close(fd) }
        return try? FileDescriptor(fd).readToEnd(limit: limit)
    }

    /// Removes the files and the folder, and whatever ssh left beside them (a rotation's
    /// `known_hosts.old`, which hostfile.c hostfile_replace_entries keeps). The folder is
    /// this session's own (mkdtemp, 0700): every name in it is the session's.
    public func remove() {
        for file in files { unlink(file) }
        files.removeAll()
        for name in FolderNames.of(path) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }

    deinit { remove() }
}
