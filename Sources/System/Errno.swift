// An errno value as a Swift error, with strerror(3)'s words.
#if canImport(Glibc)
import Glibc
#endif

public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's errno now.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(code)) }
}
