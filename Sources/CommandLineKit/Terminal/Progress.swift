// A progress line on stderr for long work: a count and, when the total is known, a
// percentage, redrawn in place at most 10 times a second and cleared when the work ends.
// Work whose size is unknown (bcrypt) shows a ticking elapsed time instead.
//
// Only drawn when enabled — a program enables it when stderr is a terminal and its user
// asked for no machine-readable output — so pipes, logs and scripts never see it.
//
//     let progress = Progress(label: "Importing known_hosts", enabled: stderrIsATerminal)
//     defer { progress.finish() }
//     ... progress.update(done: n, of: total, unit: "lines")
import Dispatch
import System

public final class Progress: Sendable {
    /// The least time between two redraws.
    public static let interval: UInt64 = 100_000_000   // ns

    private struct State {
        var lastDraw: UInt64 = 0
        var drawn = false
        var finished = false
    }

    public let label: TerminalText
    public let enabled: Bool
    private let fd: Int32
    private let start: UInt64
    private let state = Lock(State())
    /// Signalled when the ticking loop has stopped (it draws nothing after that).
    private let tickerStopped = DispatchSemaphore(value: 0)
    private let ticking = Lock(false)

    public init(label: TerminalText, enabled: Bool, fd: Int32 = FileDescriptor.standardError.rawValue) {
        self.label = label
        self.enabled = enabled
        self.fd = fd
        self.start = Self.now()
    }

    /// `done` of `total` `unit` (e.g. lines), with a percentage when `total` > 0. `fraction`
    /// overrides the percentage when the count is of something else (lines read of a file
    /// measured in bytes).
    public func update(done: Int, of total: Int?, unit: String, fraction: Double? = nil) {
        guard enabled else { return }
        let t = Self.now()
        let due = state.withLock { s -> Bool in
            guard !s.finished, !s.drawn || t &- s.lastDraw >= Self.interval else { return false }
            s.lastDraw = t
            s.drawn = true
            return true
        }
        guard due else { return }
        var text: TerminalText = "\(label): \(Self.grouped(done))"
        if let total { text += " of \(Self.grouped(total))" }
        text += " \(unit)"
        if let share = fraction ?? total.flatMap({ $0 > 0 ? Double(done) / Double($0) : nil }) {
            text += " (\(Int((min(max(share, 0), 1) * 100).rounded(.down)))%)"
        }
        draw(text)
    }

    /// For work with no count: "label… 3.4 s", redrawn every 0.1 s until `finish()`.
    public func startTicking() {
        guard enabled, !ticking.withLock({ t in defer { t = true }; return t }) else { return }
        DispatchQueue.global().async { [self] in
            while true {
                let seconds = Double(Self.now() &- start) / 1e9
                // Drawn under the lock, so `finish` cannot clear the line in between.
                let going = state.withLock { s -> Bool in
                    guard !s.finished else { return false }
                    s.drawn = true
                    draw("\(label)… \(Self.tenths(seconds)) s")
                    return true
                }
                if !going { break }
                Monotonic.sleep(.nanoseconds(Int64(Self.interval)))
            }
            tickerStopped.signal()
        }
    }

    /// Clears the line (if anything was drawn); later updates draw nothing.
    public func finish() {
        guard enabled else { return }
        let wasDrawn = state.withLock { s -> Bool in
            let d = s.drawn && !s.finished
            s.finished = true
            return d
        }
        if ticking.withLock({ t in defer { t = false }; return t }) { tickerStopped.wait() }
        if wasDrawn { Output.write("\r\u{1B}[K", to: fd) }
    }

    private func draw(_ text: TerminalText) {
        // Carriage return, the text, then erase to the end of the line: a shorter text
        // leaves nothing of the longer one before it.
        Output.write("\r\(text)\u{1B}[K", to: fd)
    }

    private static func now() -> UInt64 {
        UInt64(Monotonic.milliseconds()) * 1_000_000
    }

    /// 1234567 → "1,234,567".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    private static func tenths(_ x: Double) -> String {
        let t = Int((x * 10).rounded(.down))
        return "\(t / 10).\(t % 10)"
    }
}
