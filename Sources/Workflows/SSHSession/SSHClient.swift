// The system `ssh`: found on PATH, its version read from `ssh -V` (which prints
// "OpenSSH_9.2p1 Debian-2+deb12u6, OpenSSL 3.0.x" on stderr). hostbook needs 8.5 or
// later, the first release with KnownHostsCommand.
#if canImport(Glibc)
import Glibc
#endif
import System
import KeyFormats

public struct SSHClient: Sendable {
    public static let minimumVersion = (major: 8, minor: 5)

    public let path: String
    /// What `ssh -V` printed, first line.
    public let banner: String
    public let major: Int
    public let minor: Int

    public var supportsKnownHostsCommand: Bool { (major, minor) >= Self.minimumVersion }
    public var versionText: String { "\(major).\(minor)" }

    /// The first executable `ssh` on PATH, nil when there is none.
    public static func find(environment: [String: String]) -> String? {
        ExecutablePath.find("ssh", searchPath: environment["PATH"])
    }

    /// `ssh -V` started, to be read later (it runs while hostbook reads its database).
    public struct Probe {
        public let path: String
        let capture: CapturedProcess.Running
    }

    /// Starts `ssh -V` for the ssh on PATH; nil when there is none.
    public static func startProbe(environment: [String: String]) throws(SSHSessionRefusal) -> Probe? {
        guard let path = find(environment: environment) else { return nil }
        do {
            return Probe(path: path, capture: try CapturedProcess.startCapturingStderr(path, [path, "-V"]))
        } catch {
            throw .sshNotStarted(path: path, reason: "\(error)")
        }
    }

    /// Finds ssh and reads its version; nil version fields when it is not OpenSSH.
    public static func probe(environment: [String: String]) throws(SSHSessionRefusal) -> SSHClient? {
        try startProbe(environment: environment).map(finish)
    }

    public static func finish(_ probe: Probe) -> SSHClient {
        let path = probe.path
        let output = probe.capture.finish(limit: 65536).stderr
        let banner = String(decoding: output.split(separator: UInt8(ascii: "\n")).first ?? [], as: UTF8.self)
        let (major, minor) = parseVersion(banner) ?? (0, 0)
        return SSHClient(path: path, banner: banner, major: major, minor: minor)
    }

    /// The client for `hostbook ssh`: present and new enough, else a clear error (exit 1).
    public static func require(_ probe: Probe?) throws(SSHSessionRefusal) -> SSHClient {
        guard let client = probe.map(finish) else { throw .sshNotFound }
        guard client.supportsKnownHostsCommand else {
            throw .sshTooOld(path: client.path, banner: client.banner, major: client.major, minor: client.minor)
        }
        return client
    }

    /// "OpenSSH_9.2p1 ..." → (9, 2).
    public static func parseVersion(_ banner: String) -> (Int, Int)? {
        guard banner.hasPrefix("OpenSSH_") else { return nil }
        let digits = banner.dropFirst("OpenSSH_".count).prefix { $0.isNumber || $0 == "." }
        let parts = digits.split(separator: ".")
        guard parts.count >= 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }
}

