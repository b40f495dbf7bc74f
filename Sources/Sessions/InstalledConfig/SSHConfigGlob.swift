// glob(3) as ssh calls it for `Include` (readconf.c process_config_line_depth, GLOB_TILDE):
// sorted matches, none when nothing matches, `~` from the given home. Used by the one
// reader of the user's configuration, SSHConfigFiles.
#if canImport(Glibc)
import Glibc
#endif

public enum SSHConfigGlob {
    public static func expand(_ pattern: String, home: String) -> [String] {
        var p = pattern
        if p == "~" || p.hasPrefix("~/") { p = home + p.dropFirst() }
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(p, GLOB_TILDE, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }
    }
}
