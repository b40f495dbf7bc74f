// Warnings about the items of one input (the lines of a known_hosts file, the devices of a
// Tailscale document, ...): the first `limit` are printed as they come, the rest are only
// counted, and `finish()` prints one line with that count. A binary or huge file given by
// mistake then gives a short report instead of a warning for each of its 16,000 lines.

public final class WarningSink {
    public static let limit = 20

    private let printLine: (TerminalText) -> Void
    /// What the uncounted rest are, one and many: ("line skipped", "lines skipped") for
    /// "... and 16,012 more lines skipped".
    private let one: String
    private let many: String
    private let limit: Int
    public private(set) var count = 0

    /// `warn` prints one warning line.
    public init(warn: @escaping (TerminalText) -> Void, one: String, many: String, limit: Int = WarningSink.limit) {
        self.printLine = warn
        self.one = one
        self.many = many
        self.limit = limit
    }

    public func warn(_ text: TerminalText) {
        count += 1
        if count <= limit { printLine(text) }
    }

    /// The line that counts the warnings not printed, if there were any.
    public func finish() {
        guard count > limit else { return }
        printLine("... and \(Progress.grouped(count - limit)) more \(count - limit == 1 ? one : many)")
    }
}
