// Copies of a descriptor (dup(2), dup2(2)): to put a terminal in the place of standard input
// and standard error for a prompt, and to put the originals back after it.
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// dup(2): a new descriptor for the same open file; nil when none could be made.
    public func duplicate() -> FileDescriptor? {
        let fd = Glibc.dup(rawValue)
        return fd >= 0 ? FileDescriptor(fd) : nil
    }

    /// dup2(2): `target` becomes a copy of this descriptor (closing what it was), open across exec.
    public func duplicate(onto target: FileDescriptor) {
        _ = Glibc.dup2(rawValue, target.rawValue)
    }
}
