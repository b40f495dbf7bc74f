// The names this machine resolves by itself, without a dot: `localhost`, the names in
// /etc/hosts and the machine's own hostname. `ssh NAME` reaches them without asking DNS, so
// no one but the user may give a host such a name (HostStore's TrustAuthority).
#if canImport(Glibc)
import Glibc
#endif

public struct LocalHostNames: Sendable, Equatable {
    /// Lower-cased names.
    public let names: Set<String>

    /// `localhost` and `names` (lower-cased): what a caller or a test says the machine
    /// resolves.
    public init(_ names: [String] = []) {
        self.names = Set((["localhost"] + names).map { $0.lowercased() })
    }

    public func contains(_ name: String) -> Bool { names.contains(name.lowercased()) }

    /// The machine's: `localhost`, every name in `hostsFile` and the hostname gethostname(2)
    /// gives (whole, and its first label). An unreadable hosts file adds nothing.
    public static func current(hostsFile: String = "/etc/hosts") -> LocalHostNames {
        var names: [String] = []
        if let opened = try? RegularFile.open(hostsFile) {
            defer { Glibc.close(opened.fd) }
            if let bytes = try? FileDescriptor(opened.fd).readToEnd(limit: 1 << 20) {
                names += hostsFileNames(String(decoding: bytes, as: UTF8.self))
            }
        }
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let own = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !own.isEmpty {
                names.append(own)
                if let label = own.split(separator: ".").first { names.append(String(label)) }
            }
        }
        return LocalHostNames(names)
    }

    /// The host names of an /etc/hosts text (hosts(5)): every field after the address on
    /// each line, comments dropped.
    public static func hostsFileNames(_ text: String) -> [String] {
        var out: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let content = line.prefix { $0 != "#" }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            out += fields.dropFirst().map(String.init)
        }
        return out
    }
}
