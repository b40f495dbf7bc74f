// Runs a real program (ssh-keygen, ssh) as the oracle a test compares with, and finds one.
import Foundation

public enum Tool {
    /// Runs `path` with `args` (standard input empty; `environment`, else this process's) and
    /// returns its exit status, standard output and standard error.
    public static func run(_ path: String, _ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// Runs `path` with `args`, its standard error thrown away; returns the exit status and
    /// standard output.
    public static func output(_ path: String, _ args: [String]) throws -> (status: Int32, stdout: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The first of /usr/bin, /bin and /usr/local/bin holding an executable `tool`.
    public static func which(_ tool: String) -> String? {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        return nil
    }

    /// One value from the database `db` with the sqlite3 tool, read-only, trimmed.
    public static func sql(_ db: String, _ query: String) throws -> String {
        try run("/usr/bin/sqlite3", ["-readonly", db, query]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// /usr/bin/ssh-keygen when it is installed.
    public static var sshKeygen: String? {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") ? "/usr/bin/ssh-keygen" : nil
    }
}
