// Runs /bin/sh scripts for tests that need several processes at once, signals, or tools
// (sqlite3, secret-tool, gdbus). The hostbook binary is passed as $HB.
import Foundation

enum Shell {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Starts `script` without waiting; stdout and stderr go to files in `dir`.
    /// With `account`, the script runs as that account, in its environment plus `environment`.
    static func start(_ script: String, environment: [String: String] = [:], removing: [String] = [], dir: TemporaryDirectory, tag: String,
                      account: TestAccount? = nil) throws -> Process {
        let p = Process()
        try TestAccount.prepare(p, ["/bin/sh", "-c", script], environment: environment.merging(["HB": HostbookProcess.binaryURL.path]) { $1 },
                                removing: removing, account: account, terminal: nil)
        _ = FileManager.default.createFile(atPath: dir.file("\(tag).out"), contents: nil)
        _ = FileManager.default.createFile(atPath: dir.file("\(tag).err"), contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: dir.file("\(tag).out"))
        p.standardError = FileHandle(forWritingAtPath: dir.file("\(tag).err"))
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return p
    }

    static func output(_ dir: TemporaryDirectory, _ tag: String) -> (String, String) {
        ((try? String(contentsOfFile: dir.file("\(tag).out"), encoding: .utf8)) ?? "",
         (try? String(contentsOfFile: dir.file("\(tag).err"), encoding: .utf8)) ?? "")
    }

    /// Runs `script` to the end.
    @discardableResult
    static func run(_ script: String, environment: [String: String] = [:], removing: [String] = [], account: TestAccount? = nil) throws -> Result {
        let dir = try TemporaryDirectory()
        let p = try start(script, environment: environment, removing: removing, dir: dir, tag: "run", account: account)
        p.waitUntilExit()
        let (out, err) = output(dir, "run")
        return Result(status: p.terminationStatus, stdout: out, stderr: err)
    }

    /// One value from a database with the sqlite3 tool (read-only).
    static func sql(_ db: String, _ query: String) throws -> String {
        let r = try run("sqlite3 -readonly \"$DBFILE\" \"$QUERY\"", environment: ["DBFILE": db, "QUERY": query])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
