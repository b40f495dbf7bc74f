// The system ssh that `hostbook ssh` runs: is it on PATH, which version, and does it
// support KnownHostsCommand (OpenSSH 8.5 or later)? A missing ssh is a finding (hostbook
// works without it, `hostbook ssh` does not); an older one too.
public struct SSHClientCheck: Sendable {
    /// The environment whose PATH is searched.
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func run() -> [DoctorObservation] {
        guard let client = try? SSHClient.probe(environment: environment) else { return [.sshMissing] }
        return [client.supportsKnownHostsCommand ? .sshSupported(client) : .sshTooOld(client)]
    }
}
