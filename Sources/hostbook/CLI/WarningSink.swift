// Warnings about the items of one input (the lines of a known_hosts file, the devices of a
// Tailscale document, ...): the first `limit` are printed as they come, the rest are only
// counted, and `finish()` prints one line with that count. A binary or huge file given by
// mistake then gives a short report instead of a warning for each of its 16,000 lines.
import CommandLineKit

final class WarningSink {
    static let limit = 20

    private let invocation: Invocation
    /// What the uncounted rest are, one and many: ("line skipped", "lines skipped") for
    /// "... and 16,012 more lines skipped".
    private let one: String
    private let many: String
    private let limit: Int
    private(set) var count = 0

    init(_ invocation: Invocation, one: String, many: String, limit: Int = WarningSink.limit) {
        self.invocation = invocation
        self.one = one
        self.many = many
        self.limit = limit
    }

    func warn(_ text: TerminalText) {
        count += 1
        if count <= limit { invocation.warn(text) }
    }

    /// The line that counts the warnings not printed, if there were any.
    func finish() {
        guard count > limit else { return }
        invocation.warn("... and \(Self.grouped(count - limit)) more \(count - limit == 1 ? one : many)")
    }

    /// 16012 as "16,012".
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var out: [Character] = []
        while digits.count > 3 {
            out = [","] + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return String(digits + out)
    }
}
