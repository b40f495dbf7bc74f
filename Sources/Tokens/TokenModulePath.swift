// Which PKCS#11 modules may be loaded (as ssh-agent's -P whitelist): an absolute path under
// the system library folders, or one the user named with --allow-module. A module runs in
// hostbook's process with its secrets, so a path from a database or a team bundle must never
// load code from a user-writable place by itself.
public enum TokenModulePath {
    /// The folders whose files and subfolders' files may be loaded without being named.
    public static let systemFolders = ["/usr/lib", "/usr/local/lib", "/usr/lib/x86_64-linux-gnu"]

    /// nil when `path` may be loaded, else the error to throw.
    public static func check(_ path: String, allowed: [String] = []) -> TokenError? {
        guard path.hasPrefix("/") else { return .moduleNotAllowed(path: path) }
        if allowed.contains(path) { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // No "..", ".", or empty parts: the prefix test must mean what it says.
        guard !parts.dropFirst().contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return .moduleNotAllowed(path: path)
        }
        for folder in systemFolders where path.hasPrefix(folder + "/") { return nil }
        return .moduleNotAllowed(path: path)
    }
}
