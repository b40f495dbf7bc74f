// A file written through here appears whole or not at all: the bytes go into a temporary
// file in the same folder (mode set at creation), which is fsync'ed, then given its name
// with link(2) — which never replaces an existing file — or rename(2) when replacing is
// wanted, and finally the folder is fsync'ed so the name itself is durable. A SIGKILL at any
// moment leaves the old file (or none) or the complete new one, never a truncated one; at
// worst a `.NAME.PID-RANDOM.tmp` file (the random part makes the name unpredictable; O_EXCL and
// O_NOFOLLOW refuse anything already there) is left beside it.
// A file kept as a symbolic link (a dotfile manager's) is written through the link: the
// caller asks `linkTarget(of:)` for the end of the chain and writes there, so the new file
// replaces the target in the target's folder and the link stays as it was.
#if canImport(Glibc)
import Glibc
#endif

public enum AtomicFile {
    public enum Failure: Error, Sendable {
        /// `path` exists and replacing was not asked for.
        case exists
        /// A step failed: what was being done, and errno's words.
        case io(String)
    }

    /// True when something (a file, a folder, a link) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// Writes what `body` writes into the descriptor it is given to `path`, atomically.
    /// `body` returns false on a write error (errno set). With `replace` false an existing
    /// `path` is never touched (`Failure.exists`).
    public static func write(_ path: String, mode: mode_t, replace: Bool = false, _ body: (Int32) -> Bool) throws(Failure) {
        if !replace && exists(path) { throw Failure.exists }
        let folder = ParentFolder.of(path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        var temp = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            temp = (folder == "." ? "" : folder + "/") + ".\(base).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw Failure.io("cannot create a file in '\(folder)': \(String(cString: strerror(errno)))") }
        var failure: String?
        if fchmod(fd, mode) != 0 {
            failure = "cannot set the mode of '\(temp)': \(String(cString: strerror(errno)))"
        } else if !body(fd) {
            failure = "cannot write '\(temp)': \(String(cString: strerror(errno)))"
        } else if fsync(fd) != 0 {
            failure = "cannot write '\(temp)' to disk: \(String(cString: strerror(errno)))"
        }
        if close(fd) != 0 && failure == nil { failure = "cannot write '\(temp)': \(String(cString: strerror(errno)))" }
        if let failure {
            unlink(temp)
            throw Failure.io(failure)
        }
        if replace {
            if rename(temp, path) != 0 {
                let why = String(cString: strerror(errno))
                unlink(temp)
                throw Failure.io("cannot name the file '\(path)': \(why)")
            }
        } else {
            if link(temp, path) != 0 {
                let err = errno
                unlink(temp)
                if err == EEXIST { throw Failure.exists }
                throw Failure.io("cannot name the file '\(path)': \(String(cString: strerror(err)))")
            }
            unlink(temp)
        }
        syncFolder(folder)
    }

    /// Writes `bytes` to `path` atomically (see `write(_:mode:replace:_:)`).
    public static func write(_ path: String, bytes: UnsafeRawBufferPointer, mode: mode_t, replace: Bool = false) throws(Failure) {
        try write(path, mode: mode, replace: replace) { fd in (try? FileDescriptor(fd).writeAll(bytes)) != nil }
    }

    public static func write(_ path: String, bytes: [UInt8], mode: mode_t, replace: Bool = false) throws(Failure) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Failure) in try write(path, bytes: buffer, mode: mode, replace: replace) } }.get()
    }

    /// Linux's limit on links followed in one path lookup (namei.h MAXSYMLINKS).
    public static let maxLinks = 40

    /// What writing `path` must replace so that a symbolic link at `path` stays a link: the
    /// end of its chain of links (a relative target is taken from its link's folder, as the
    /// kernel does), or `path` itself when it is no link. Nil when nothing is at `path`.
    /// The end must be a regular file: a link to nothing, to a folder or to a device would
    /// be replaced by, or write into, something the user did not ask for.
    public static func linkTarget(of path: String) throws(Failure) -> String? {
        var current = path
        for _ in 0...maxLinks {
            var st = stat()
            guard lstat(current, &st) == 0 else {
                let err = errno
                if err == ENOENT && current == path { return nil }
                if err == ENOENT { throw Failure.io("'\(path)' is a symbolic link to '\(current)', which does not exist") }
                throw Failure.io("cannot look at '\(current)': \(String(cString: strerror(err)))")
            }
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                return current
            case S_IFLNK:
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(current, &buffer, buffer.count - 1)
                guard n >= 0 else { throw Failure.io("cannot read the symbolic link '\(current)': \(String(cString: strerror(errno)))") }
                guard let target = String(validating: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) else {
                    throw Failure.io("the symbolic link '\(current)' points to a name that is not UTF-8")
                }
                current = target.hasPrefix("/") ? target : ParentFolder.of(current) + "/" + target
            default:
                let what = (st.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
                throw Failure.io(current == path ? "'\(path)' is \(what)" : "'\(path)' is a symbolic link to '\(current)', which is \(what)")
            }
        }
        throw Failure.io("'\(path)' is a chain of more than \(maxLinks) symbolic links (a loop?)")
    }

    /// Makes a new name in `folder` durable (best effort: some file systems refuse fsync of a folder).
    public static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
