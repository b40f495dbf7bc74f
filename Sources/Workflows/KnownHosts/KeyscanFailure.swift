// Why a scan found no host keys, in one line: the name does not resolve, the connection
// was refused, or it timed out. ssh-keyscan says only the first of these (its getaddrinfo
// line, five times), and nothing at all for a refused or silent port, so after it fails
// hostbook looks for itself: it resolves the name and opens one TCP connection with the
// same timeout. ssh-keyscan's own stderr is never passed through.
#if canImport(Glibc)
import Glibc
#endif
import System
import KeyFormats

public enum KeyscanFailure: Equatable, Sendable {
    /// The resolver's reason, raw (ssh-keyscan's getaddrinfo line, or gai_strerror).
    case doesNotResolve(String)
    case refused
    case timedOut(seconds: Int)
    /// The port answered but no host key came (not an SSH server, or it hung up).
    case noKeys
    case unreachable(String)

    /// Classifies a scan that found no keys, from ssh-keyscan's stderr and, when that
    /// says nothing, one connection attempt of hostbook's own.
    /// `elapsed` is how long ssh-keyscan ran: a port that accepts the connection but sends
    /// no SSH banner makes it wait the whole timeout.
    public static func diagnose(host: String, port: Int, timeout: Int, elapsed: Double, keyscanStderr: String) -> KeyscanFailure {
        let lines = Array(keyscanStderr.utf8).split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
        for line in lines where line.starts(with: "getaddrinfo ".utf8) {
            // `getaddrinfo HOST: REASON`
            let b = Array(line)
            if let i = b.indices.first(where: { $0 + 1 < b.count && b[$0] == UInt8(ascii: ":") && b[$0 + 1] == UInt8(ascii: " ") }) {
                return .doesNotResolve(String(decoding: b[(i + 2)...], as: UTF8.self))
            }
            return .doesNotResolve("getaddrinfo failed")
        }
        let found = probe(host: host, port: port, timeout: timeout)
        if found == .noKeys && elapsed >= Double(timeout) * 0.9 { return .timedOut(seconds: timeout) }
        return found
    }

    /// Resolves `host` and tries to connect to each address within `timeout` seconds.
    public static func probe(host: String, port: Int, timeout: Int) -> KeyscanFailure {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else { return .doesNotResolve(String(cString: gai_strerror(rc))) }
        defer { freeaddrinfo(first) }
        var results: [KeyscanFailure] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let ai = next {
            next = ai.pointee.ai_next
            let r = connectOnce(ai.pointee, timeout: timeout)
            // One address that answers or stays silent says more than one that refuses.
            if r == .noKeys || r == .timedOut(seconds: timeout) { return r }
            results.append(r)
        }
        return results.first { $0 == .refused } ?? results.last ?? .unreachable("no address to connect to")
    }

    /// One non-blocking connect: refused, timed out, unreachable, or connected (then the
    /// port is there and the failure was that no key came).
    private static func connectOnce(_ ai: addrinfo, timeout: Int) -> KeyscanFailure {
        switch TCPConnectProbe.connect(ai, timeoutMilliseconds: Int32(clamping: timeout * 1000)) {
        case .connected: return .noKeys
        case .refused: return .refused
        case .timedOut: return .timedOut(seconds: timeout)
        case .failed(let error): return .unreachable(error.description)
        }
    }
}
