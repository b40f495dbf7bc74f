// The one rule for the folder that holds a path, as POSIX dirname(3) answers it: trailing
// slashes are not a name ("a/b/" is in "a"), repeated slashes count as one, a path with no
// slash is in the current folder ("."), and "/" is its own parent. Every caller that needs
// "the folder of this file" (to create it, sync it, check its mode) asks here.

public enum ParentFolder {
    /// The folder holding `path`: "." for a name with no slash (and for ""), "/" for a name
    /// just under the root and for the root itself.
    public static func of(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.last == "/" { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        var folder = p[..<slash]
        while folder.last == "/" { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }
}
