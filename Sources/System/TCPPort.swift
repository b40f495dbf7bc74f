// The one rule for a TCP port number hostbook accepts or reads: a whole number from 1 to
// 65535 (0 is no port; ssh's a2port refuses it too). Every check of a port (the command
// line's --port, a saved host, a `[host]:port` name, ssh_config's Port, a KnownHostsCommand
// argument) asks here; the database's CHECK constraint states the same range in SQL.

public enum TCPPort {
    /// The ports there are.
    public static let range: ClosedRange<Int> = 1...65535

    /// Whether `number` is a port.
    public static func isValid(_ number: Int) -> Bool { range.contains(number) }
}
