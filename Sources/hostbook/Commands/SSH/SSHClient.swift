// The system `ssh`: found on PATH, its version read from `ssh -V` (which prints
// "OpenSSH_9.2p1 Debian-2+deb12u6, OpenSSL 3.0.x" on stderr). hostbook needs 8.5 or
// later, the first release with KnownHostsCommand.
#if canImport(Glibc)
import Glibc
#endif
import System
import KeyFormats

struct SSHClient {
    static let minimumVersion = (major: 8, minor: 5)

    let path: String
    /// What `ssh -V` printed, first line.
    let banner: String
    let major: Int
    let minor: Int

    var supportsKnownHostsCommand: Bool { (major, minor) >= Self.minimumVersion }
    var versionText: String { "\(major).\(minor)" }

    /// The first executable `ssh` on PATH, nil when there is none.
    static func find(environment: [String: String]) -> String? {
        ExecutablePath.find("ssh", searchPath: environment["PATH"])
    }

    /// `ssh -V` started, to be read later (it runs while hostbook reads its database).
    struct Probe {
        let path: String
        let capture: CapturedProcess.Running
    }

    /// Starts `ssh -V` for the ssh on PATH; nil when there is none.
    static func startProbe(environment: [String: String]) throws -> Probe? {
        guard let path = find(environment: environment) else { return nil }
        do {
            return Probe(path: path, capture: try CapturedProcess.startCapturingStderr(path, [path, "-V"]))
        } catch {
            throw CLIError.failure("cannot run \(path): \(error)")
        }
    }

    /// Finds ssh and reads its version; nil version fields when it is not OpenSSH.
    static func probe(environment: [String: String]) throws -> SSHClient? {
        try startProbe(environment: environment).map(finish)
    }

    static func finish(_ probe: Probe) -> SSHClient {
        let path = probe.path
        let output = probe.capture.finish(limit: 65536).stderr
        let banner = String(decoding: output.split(separator: UInt8(ascii: "\n")).first ?? [], as: UTF8.self)
        let (major, minor) = parseVersion(banner) ?? (0, 0)
        return SSHClient(path: path, banner: banner, major: major, minor: minor)
    }

    /// The client for `hostbook ssh`: present and new enough, else a clear error (exit 1).
    static func require(_ probe: Probe?) throws -> SSHClient {
        guard let client = probe.map(finish) else {
            throw CLIError.failure("ssh was not found on PATH", hint: "Install the openssh-client package (OpenSSH 8.5 or later).")
        }
        guard client.supportsKnownHostsCommand else {
            let what = client.major == 0 ? "'\(client.banner.escapedForTerminal)'" : "OpenSSH \(client.versionText)"
            throw CLIError.failure("\(client.path) is \(what); hostbook ssh needs OpenSSH 8.5 or later (KnownHostsCommand)",
                                   hint: "Install a newer openssh-client, or put a newer ssh first on PATH.")
        }
        return client
    }

    /// "OpenSSH_9.2p1 ..." → (9, 2).
    static func parseVersion(_ banner: String) -> (Int, Int)? {
        guard banner.hasPrefix("OpenSSH_") else { return nil }
        let digits = banner.dropFirst("OpenSSH_".count).prefix { $0.isNumber || $0 == "." }
        let parts = digits.split(separator: ".")
        guard parts.count >= 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }
}

