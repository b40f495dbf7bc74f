// The controlling terminal of a process a ProcessIdentity pins, told one line: how the
// standing agent lets the person whose ssh or git asked for a signature see what happens to
// it. The terminal is tty_nr (field 7 of /proc/PID/stat), read while the process is
// unchanged. Only a pseudo-terminal (/dev/pts/N) that is a character device owned by this
// process's user is opened, O_WRONLY|O_NOCTTY|O_NONBLOCK: it is never read, never becomes
// anyone's controlling terminal and is never waited on (a terminal that cannot take the line
// at once drops it), and the descriptor must be the very device tty_nr names.
#if canImport(Glibc)
import Glibc
#endif

extension ProcessIdentity {
    /// The process's controlling terminal (tty_nr, as the kernel encodes a device number)
    /// while the process is unchanged; nil when it has none or cannot be identified.
    public var controllingTerminal: UInt64? {
        guard isUnchanged, let device = Self.terminalDevice(of: pid), device != 0, isUnchanged else { return nil }
        return device
    }

    /// Writes `line` and a line end to the process's controlling terminal when it is a
    /// pseudo-terminal of this user; whether it was written. `line` must be escaped already.
    @discardableResult
    public func tellTerminal(_ line: String) -> Bool {
        guard let device = controllingTerminal, let path = Self.pseudoTerminalPath(device) else { return false }
        var before = stat()
        guard lstat(path, &before) == 0, Self.isOwnTerminal(before, device: device) else { return false }
        let fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var opened = stat()
        guard fstat(fd, &opened) == 0, Self.isOwnTerminal(opened, device: device), isatty(fd) == 1 else { return false }
        return (try? FileDescriptor(fd).writeAll(Array((line + "\r\n").utf8))) != nil
    }

    private static func isOwnTerminal(_ info: stat, device: UInt64) -> Bool {
        info.st_mode & S_IFMT == S_IFCHR && info.st_uid == geteuid() && UInt64(info.st_rdev) == device
    }

    /// /dev/pts/N for a pseudo-terminal's device number (majors 136 to 143); nil for any other.
    static func pseudoTerminalPath(_ device: UInt64) -> String? {
        let major = (device >> 8) & 0xfff
        let minor = (device & 0xff) | ((device >> 12) & 0xfff00)
        guard (136...143).contains(major) else { return nil }
        return "/dev/pts/\((major - 136) * 256 + minor)"
    }

    /// Field 7 of /proc/PID/stat (tty_nr; nil for 0: no controlling terminal).
    static func terminalDevice(of pid: Int32) -> UInt64? {
        guard let value = ProcessState.statNumber(7, of: pid, as: Int64.self), value > 0 else { return nil }
        return UInt64(value)
    }
}
