// A folder the user asked for by path and shares (a bundle's export folder, `-o DIR`):
// created 0755 (less what the umask takes), its missing parents too only when asked for,
// so a mistyped path is not silently made. An existing folder is kept as it is. The error
// names the folder that could not be made (ENOENT: its parent is missing).
#if canImport(Glibc)
import Glibc
#endif

public enum SharedFolder {
    /// Creates `path` (0755) unless it exists; its missing parents too when `parents`.
    public static func make(_ path: String, parents: Bool) throws(PrivateFolder.Failure) {
        if path.isEmpty || path == "/" || path == "." || exists(path) { return }
        if parents { try make(ParentFolder.of(path), parents: true) }
        if mkdir(path, 0o755) != 0 && Glibc.errno != EEXIST { throw PrivateFolder.Failure(path: path, errno: .current) }
    }

    /// True when something is at `path` (a link is not followed).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
