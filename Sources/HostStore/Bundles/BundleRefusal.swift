// Why a bundle is refused before anything is planned (the serial rules of docs/formats.md,
// "Team bundles"): typed so the program can word and exit on each.

public struct BundleRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The serial is lower than the one applied: a replayed old bundle.
        case olderSerial(applied: UInt64, offered: UInt64)
        /// The serial equals the one applied but the content differs.
        case reusedSerial(serial: UInt64)
        /// The document names another bundle than the one asked for.
        case nameMismatch(expected: String, found: String)
        /// The bundle's content cannot be applied (a bad host, snippet or key line).
        case invalidContent
    }

    public let kind: Kind
    public let bundle: String
    /// One line, in a user's words; bundle text already escaped.
    public let message: String
    public let hint: String?

    public init(_ kind: Kind, bundle: String, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.bundle = bundle
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}
