// Removing a folder and everything in it, never following a symbolic link (one is removed
// as a link): what a failed `bundle subscribe` does with the clone it made.
#if canImport(Glibc)
import Glibc
#endif

public enum FolderTree {
    /// Removes `path` and all under it; true when nothing is left there. A link, a file or a
    /// folder that cannot be removed stays (the result is false).
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        guard info.st_mode & S_IFMT == S_IFDIR else { return unlink(path) == 0 }
        for name in FolderNames.of(path) ?? [] { remove(path + "/" + name) }
        return rmdir(path) == 0
    }
}
