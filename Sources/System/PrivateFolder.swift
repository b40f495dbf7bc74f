// The one way hostbook makes a folder of its own (`mkdir -p` with mode 0700): the folder
// and each missing parent are created 0700 (the database's parents 0755, which it asks
// for), an existing folder is kept as it is (its mode is the caller's to check or report).
// Callers word the failure; the error names the folder that could not be made.
#if canImport(Glibc)
import Glibc
#endif

public enum PrivateFolder {
    public struct Failure: Error, Sendable, Equatable {
        /// The folder that could not be created.
        public let path: String
        public let errno: Errno
    }

    /// Creates `path` and its missing parents: `path` 0700, the parents `parentMode`.
    public static func make(_ path: String, parentMode: mode_t = 0o700) throws(Failure) {
        if path.isEmpty || path == "/" || path == "." || exists(path) { return }
        try make(ParentFolder.of(path), mode: parentMode)
        if mkdir(path, 0o700) != 0 && Glibc.errno != EEXIST { throw Failure(path: path, errno: .current) }
    }

    private static func make(_ path: String, mode: mode_t) throws(Failure) {
        if path.isEmpty || path == "/" || path == "." || exists(path) { return }
        try make(ParentFolder.of(path), mode: mode)
        if mkdir(path, mode) != 0 && Glibc.errno != EEXIST { throw Failure(path: path, errno: .current) }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
