// Whether a descriptor is a terminal (isatty(3)): what decides if a program may prompt,
// draw progress or colour, or measure a window.
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// True when the descriptor is open on a terminal (a tty or a pseudo-terminal).
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}
