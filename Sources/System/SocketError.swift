// Why a private socket or its folder could not be made (PrivateSocketDirectory, the agent's
// UnixSocketServer): one line in a user's words.
#if canImport(Glibc)
import Glibc
#endif

public struct SocketError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
    /// `what: strerror(errno)`.
    public static func errno(_ what: String) -> SocketError { SocketError("\(what): \(String(cString: strerror(Glibc.errno)))") }
}
