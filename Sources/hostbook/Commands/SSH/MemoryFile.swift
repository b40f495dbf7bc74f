// An anonymous file in memory (memfd_create): the generated configuration and the public
// key files ssh reads as `/proc/<hostbook pid>/fd/N` (openssh-integration.md §6.2). It has
// no name on any disk, only this user (and root) can open it through /proc, and it is gone
// when hostbook closes it. `-F /dev/fd/N` would not do: ssh closes inherited descriptors.
#if canImport(Glibc)
import Glibc
#endif

final class MemoryFile {
    let fd: Int32

    /// glibc has memfd_create since 2.27, but Swift's Glibc module does not export it.
    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    private static let mfdCloexec: UInt32 = 1

    init(name: String, contents: [UInt8]) throws {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else {
            throw CLIError.failure("this system has no memfd_create (Linux 3.17 and glibc 2.27 are needed)")
        }
        let create = unsafeBitCast(symbol, to: MemfdCreate.self)
        let fd = create(name, Self.mfdCloexec)
        guard fd >= 0 else { throw CLIError.failure("cannot create an in-memory file: \(String(cString: strerror(errno)))") }
        self.fd = fd
        var offset = 0
        while offset < contents.count {
            let n = contents.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; close(fd); throw CLIError.failure("cannot write an in-memory file") }
            offset += n
        }
    }

    /// The path other processes of this user open it by.
    var procPath: String { "/proc/\(getpid())/fd/\(fd)" }

    deinit { close(fd) }
}
