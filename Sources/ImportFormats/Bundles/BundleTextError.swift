// The one error of reading a bundle's text (BundleText.parse).

/// Why a bundle's text was refused: the line (1-based; 0 for the whole input) and what is
/// wrong with it, in a user's words. Text from the bundle in `message` is already escaped.
public struct BundleTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
