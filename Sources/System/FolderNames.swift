// The names in a folder (readdir(3)), without "." and "..", in the order the folder gives
// them: the one place that reads a folder's entries.
#if canImport(Glibc)
import Glibc
#endif

public enum FolderNames {
    /// The names in `path`; nil when it cannot be opened as a folder (missing, not a folder,
    /// not readable).
    public static func of(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
