// A temporary HOME with a ~/.ssh folder for one test, real file access for the loader
// (reading files, glob(3) with ~ taken from this HOME), and `ssh -G` as the oracle.
import Foundation
import SSHConfig
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class ConfigFolder {
    let home: String
    var ssh: String { home + "/.ssh" }

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("sshconfig-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: home) }

    /// Writes `text` to `path` (relative to ~/.ssh unless absolute), creating folders.
    @discardableResult
    func write(_ path: String, _ text: String) throws -> String {
        let full = path.hasPrefix("/") ? path : ssh + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    var access: SSHConfigFileAccess {
        let home = self.home
        return SSHConfigFileAccess(
            read: { path in
                guard let data = FileManager.default.contents(atPath: path) else { throw ReadFailure(path: path) }
                return [UInt8](data)
            },
            glob: { pattern in Self.glob(pattern, home: home) })
    }

    struct ReadFailure: Error, CustomStringConvertible {
        let path: String
        var description: String { "no such file" }
    }

    static func glob(_ pattern: String, home: String) -> [String] {
        var p = pattern
        if p == "~" || p.hasPrefix("~/") { p = home + p.dropFirst() }
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(p, GLOB_TILDE, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }
    }

    func load(_ file: String) throws -> SSHConfiguration {
        try SSHConfigLoader.load(file.hasPrefix("/") ? file : ssh + "/" + file, access: access)
    }

    static var localUser: String {
        guard let pw = getpwuid(getuid()) else { return "root" }
        return String(cString: pw.pointee.pw_name)
    }

    static var sshAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") }

    /// `ssh -G -F FILE ALIAS` with HOME set to this folder: the lines on stdout, and the
    /// exit status.
    func sshG(_ file: String, _ alias: String) throws -> (status: Int32, lines: [String], stderr: String) {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        let r = try Tool.run("/usr/bin/ssh", ["-G", "-F", file.hasPrefix("/") ? file : ssh + "/" + file, "--", alias], environment: env)
        return (r.status, r.stdout.split(separator: "\n").map(String.init), r.stderr)
    }
}
