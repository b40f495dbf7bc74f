// Running `ssh-keyscan -T SECONDS -p PORT -- HOST` for `known-hosts scan`: its key lines
// are read from stdout; its stderr (comment banners, getaddrinfo lines) is kept, never
// shown, and used only to say why nothing was found (KeyscanFailure).
#if canImport(Glibc)
import Glibc
#endif
import System
import KeyFormats

public enum Keyscan {
    public static let defaultTimeout = 5

    /// The distinct plain keys `host` offers on `port`; throws `KnownHostsRefusal` (the
    /// program not found or not run, or why the scan found none) when there are none.
    public static func keys(host: String, port: Int, timeout: Int) throws -> [PublicKey] {
        let started = monotonicSeconds()
        guard let program = ExecutablePath.find("ssh-keyscan", searchPath: getenv("PATH").map { String(cString: $0) }) else {
            throw KnownHostsRefusal.keyscanNotFound
        }
        let output: CapturedProcess.Result
        do {
            output = try CapturedProcess.run(program, ["ssh-keyscan", "-T", String(timeout), "-p", String(port), "--", host], limit: 1 << 26)
        } catch {
            throw KnownHostsRefusal.keyscanDidNotRun(reason: "\(error)")
        }
        var keys: [PublicKey] = []
        for line in output.stdout.split(separator: UInt8(ascii: "\n")) {
            guard case .entry(let l)? = try? KnownHostsLine.parse(bytes: line), l.marker == .none,
                  let entry = try? KnownHostsEntry(line: l), !keys.contains(entry.key) else { continue }
            keys.append(entry.key)
        }
        if keys.isEmpty {
            let failure = KeyscanFailure.diagnose(host: host, port: port, timeout: timeout, elapsed: monotonicSeconds() - started,
                                                  keyscanStderr: String(decoding: output.stderr, as: UTF8.self))
            throw KnownHostsRefusal.scanFailed(host: host, port: port, failure)
        }
        return keys
    }

    static func monotonicSeconds() -> Double {
        Monotonic.seconds()
    }
}
