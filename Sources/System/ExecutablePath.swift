// Finding a program on PATH as execvp(3) does: each folder in order, an empty entry
// meaning the working directory; the first regular file this process may execute wins.
#if canImport(Glibc)
import Glibc
#endif

public enum ExecutablePath {
    /// The search path used when PATH is unset or empty.
    public static let defaultSearchPath = "/usr/local/bin:/usr/bin:/bin"

    /// The absolute path of the first executable `name` on `searchPath` (nil or empty: the
    /// default), nil when there is none. A name holding '/' is not searched for.
    public static func find(_ name: String, searchPath: String?) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? absolute(name) : nil }
        let path = searchPath.flatMap { $0.isEmpty ? nil : $0 } ?? defaultSearchPath
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            if isExecutableFile(candidate) { return absolute(candidate) }
        }
        return nil
    }

    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// `path` made absolute against the working directory.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (cwd == "/" ? "" : cwd) + "/" + path
    }

    /// This program's own absolute path (/proc/self/exe).
    public static func ofThisProcess() throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw Errno.current }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
