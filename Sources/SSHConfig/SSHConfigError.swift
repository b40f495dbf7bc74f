// A configuration that ssh itself would refuse ("FILE line N: ...", then "terminating"),
// or an Include that cannot be followed. Carries the file and line so the message can
// point at it; the text quoted from the file is the caller's to escape when printed.

public struct SSHConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A line ssh rejects: invalid quotes, no argument, a bad port, ...
        case syntax
        /// More than `SSHConfigLoader.maxIncludeDepth` nested Include levels (a cycle, usually).
        case includeDepth
        /// A file named by the caller or matched by an Include could not be read.
        case unreadable
        /// The configuration with its Includes is beyond SSHConfigLoadLimits.
        case tooLarge
    }

    public let kind: Kind
    public let file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public let line: Int
    public let message: String

    public init(_ kind: Kind, file: String, line: Int, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file) line \(line): \(message)" : "\(file): \(message)" }
}
