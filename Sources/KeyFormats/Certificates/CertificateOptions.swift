// The critical options and extensions a CA writes into a certificate, from the option
// names `ssh-keygen -O` accepts (ssh-keygen(1), "CERTIFICATES"):
//   clear                          no extensions at all
//   no-NAME / permit-NAME          X11-forwarding, agent-forwarding, port-forwarding, pty,
//                                  user-rc (the five a user certificate has by default)
//   no-touch-required / touch-required, verify-required / no-verify-required
//   force-command=CMD, source-address=CIDR[,CIDR...]   critical options
//   extension:NAME[=VALUE], critical:NAME[=VALUE]       any other
// Names compare case-insensitively as in ssh-keygen. Both lists are written sorted by name
// in byte order, then flag before value (PROTOCOL.certkeys asks for lexical order; ssh-keygen
// sorts the same way), a flag as an empty string and a value as a string inside the data.
// A host certificate carries neither (ssh-keygen -h writes none).

public struct CertificateOptions: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let name: String
        /// nil: a flag (empty data); else the string the data holds.
        public let value: String?
        public let critical: Bool
    }

    /// The five standard permissions (`permit-NAME`), in the spelling certificates use.
    public static let permissions = ["X11-forwarding", "agent-forwarding", "port-forwarding", "pty", "user-rc"]

    public private(set) var permits: Set<String>
    public private(set) var noTouchRequired = false
    public private(set) var verifyRequired = false
    public private(set) var forceCommand: String?
    public private(set) var sourceAddress: String?
    public private(set) var custom: [Entry] = []

    /// What `ssh-keygen -s` gives a user certificate with no -O: the five permissions.
    public static var userDefault: CertificateOptions { CertificateOptions(permits: Set(permissions)) }
    /// No options and no extensions.
    public static var none: CertificateOptions { CertificateOptions(permits: []) }

    init(permits: Set<String>) { self.permits = permits }

    /// Applies one `-O` style option.
    public mutating func apply(_ option: String) throws(CertificateOptionError) {
        let lower = option.lowercased()
        if lower == "clear" { permits = []; noTouchRequired = false; verifyRequired = false; return }
        for p in Self.permissions {
            if lower == "permit-" + p.lowercased() { permits.insert(p); return }
            if lower == "no-" + p.lowercased() { permits.remove(p); return }
        }
        switch lower {
        case "no-touch-required": noTouchRequired = true; return
        case "touch-required": noTouchRequired = false; return
        case "verify-required": verifyRequired = true; return
        case "no-verify-required": verifyRequired = false; return
        default: break
        }
        if let value = Self.value(of: option, prefix: "force-command=") {
            guard !value.isEmpty else { throw .emptyValue(name: "force-command") }
            guard forceCommand == nil else { throw .repeated(name: "force-command") }
            forceCommand = value
            return
        }
        if let value = Self.value(of: option, prefix: "source-address=") {
            guard !value.isEmpty else { throw .emptyValue(name: "source-address") }
            guard sourceAddress == nil else { throw .repeated(name: "source-address") }
            guard Self.isAddressList(value) else { throw .badSourceAddress(value) }
            sourceAddress = value
            return
        }
        for (prefix, critical) in [("extension:", false), ("critical:", true)] {
            guard let rest = Self.value(of: option, prefix: prefix) else { continue }
            let parts = rest.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard !name.isEmpty else { throw .emptyValue(name: prefix.dropLast().description) }
            custom.append(Entry(name: name, value: parts.count > 1 ? String(parts[1]) : nil, critical: critical))
            return
        }
        throw .unknown(option)
    }

    /// Every entry, sorted as ssh-keygen sorts them (critical after extension, then by name
    /// in byte order, a flag before a value, then by value).
    public var entries: [Entry] {
        var all = custom
        if let forceCommand { all.append(Entry(name: "force-command", value: forceCommand, critical: true)) }
        if let sourceAddress { all.append(Entry(name: "source-address", value: sourceAddress, critical: true)) }
        if verifyRequired { all.append(Entry(name: "verify-required", value: nil, critical: true)) }
        for p in permits { all.append(Entry(name: "permit-" + p, value: nil, critical: false)) }
        if noTouchRequired { all.append(Entry(name: "no-touch-required", value: nil, critical: false)) }
        return all.sorted { a, b in
            if a.critical != b.critical { return !a.critical }
            if a.name != b.name { return Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8)) }
            switch (a.value, b.value) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
            }
        }
    }

    /// The encoded critical options field.
    public var criticalOptionsField: [UInt8] { Self.encode(entries.filter(\.critical)) }
    /// The encoded extensions field.
    public var extensionsField: [UInt8] { Self.encode(entries.filter { !$0.critical }) }

    private static func encode(_ entries: [Entry]) -> [UInt8] {
        var w = SSHWriter()
        for e in entries {
            w.writeString(e.name)
            if let value = e.value {
                var inner = SSHWriter()
                inner.writeString(value)
                w.writeString(inner.bytes)
            } else {
                w.writeString([UInt8]())
            }
        }
        return w.bytes
    }

    private static func value(of option: String, prefix: String) -> String? {
        guard option.count >= prefix.count, option.prefix(prefix.count).lowercased() == prefix else { return nil }
        return String(option.dropFirst(prefix.count))
    }

    /// A comma-separated list of IPv4 or IPv6 addresses, each with an optional /bits.
    static func isAddressList(_ text: String) -> Bool {
        text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { item in
            let parts = item.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, !parts[0].isEmpty else { return false }
            let address = String(parts[0])
            let isV6 = address.contains(":")
            if parts.count == 2 {
                guard let bits = Int(parts[1]), bits >= 0, bits <= (isV6 ? 128 : 32) else { return false }
            }
            return isV6 ? HostNameRule.isIPv6(address) : HostNameRule.isIPv4(address)
        }
    }
}

/// Why a certificate option was refused; the program words it.
public enum CertificateOptionError: Error, Sendable, Equatable {
    /// Not a name ssh-keygen -O accepts.
    case unknown(String)
    /// `force-command=` or `source-address=` (or `extension:`) without a value.
    case emptyValue(name: String)
    /// `force-command` or `source-address` given twice.
    case repeated(name: String)
    /// Not a list of addresses and CIDR blocks.
    case badSourceAddress(String)
}
