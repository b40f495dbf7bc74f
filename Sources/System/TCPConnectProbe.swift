// One non-blocking TCP connect with a time limit: whether anything listens at an address.
#if canImport(Glibc)
import Glibc
#endif

public enum TCPConnectProbe {
    public enum Outcome: Sendable, Equatable {
        case connected
        case refused
        case timedOut
        case failed(Errno)
    }

    /// Connects to the address `ai` and closes at once.
    public static func connect(_ ai: addrinfo, timeoutMilliseconds: Int32) -> Outcome {
        let fd = socket(ai.ai_family, ai.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), ai.ai_protocol)
        guard fd >= 0 else { return .failed(Errno.current) }
        defer { close(fd) }
        if Glibc.connect(fd, ai.ai_addr, ai.ai_addrlen) == 0 { return .connected }
        if errno == ECONNREFUSED { return .refused }
        guard errno == EINPROGRESS else { return .failed(Errno.current) }
        let ready = (try? Poll.wait(fd, events: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds)) ?? true
        if !ready { return .timedOut }
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        switch err {
        case 0: return .connected
        case ECONNREFUSED: return .refused
        case ETIMEDOUT: return .timedOut
        default: return .failed(Errno(err))
        }
    }
}
