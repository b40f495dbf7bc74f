// This process's environment, read once into a dictionary: the program's commands are
// handed it (Workspace) rather than asking for variables one at a time.
import Glibc

public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
