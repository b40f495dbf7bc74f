// The files of a database on disk: its folder (0700), the file itself (0600), SQLite's
// -wal and -shm companions (SQLite gives them the main file's mode) and backups.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum DatabaseFiles {
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The size in bytes of the file at `path`, or nil when it does not exist.
    public static func size(of path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// The permission bits of `path`, or nil when it does not exist.
    public static func mode(of path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode) & 0o7777
    }

    /// Every file that belongs to the database at `path` and exists: the file, -wal, -shm,
    /// backups made before migrations, and unfinished backups (`.partial`).
    public static func companions(of path: String) -> [String] {
        var out = [path, path + "-wal", path + "-shm", path + "-journal"].filter(exists)
        let dir = ParentFolder.of(path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        for name in FolderNames.of(dir) ?? [] where name.hasPrefix(base + ".v") && (name.hasSuffix(".bak") || name.hasSuffix(".partial")) {
            out.append(!path.contains("/") ? name : (dir == "/" ? "/" + name : dir + "/" + name))
        }
        return out
    }

    /// Creates the folder of `path` (and missing parents): the database's own folder 0700,
    /// parents with the usual 0755. An existing folder keeps its mode (`doctor` reports it).
    static func prepareFolder(for path: String) throws {
        let dir = ParentFolder.of(path)
        guard !exists(dir) else { return }
        do {
            try PrivateFolder.make(dir, parentMode: 0o755)
        } catch {
            throw HostStoreError(.failed, "cannot create the folder '\(error.path)': \(error.errno)",
                                 hint: "Check the permissions of its parent, or choose another path with --db.")
        }
    }

    /// Creates an empty file with mode 0600 unless it exists. SQLite then opens it, and
    /// creates -wal and -shm with the same mode.
    static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd); return }
        if errno == EEXIST { return }
        throw HostStoreError(.failed, "cannot create the database '\(path)': \(String(cString: strerror(errno)))",
                             hint: "Check the folder's permissions, or choose another path with --db.")
    }

    /// fsync(2) of a file or a folder (best effort: some file systems refuse it for folders).
    static func sync(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// A file name for the backup taken before migrating from `version`:
    /// `hostbook.db.v1.bak`, or `hostbook.db.v1.2.bak` ... when that exists.
    static func backupPath(for path: String, version: Int) -> String {
        let first = "\(path).v\(version).bak"
        if !exists(first) { return first }
        var n = 2
        while exists("\(path).v\(version).\(n).bak") { n += 1 }
        return "\(path).v\(version).\(n).bak"
    }
}
