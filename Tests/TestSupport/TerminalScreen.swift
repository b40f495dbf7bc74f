// What a terminal shows of bytes a full-screen program drew: its own escape sequences
// (cursor moves, colours, modes) taken out, as lines.
import Foundation

public enum TerminalScreen {
    /// Screen text without CSI sequences, split at "\r\n".
    public static func visibleLines(_ drawn: String) -> [String] {
        let plain = drawn.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        return plain.components(separatedBy: "\r\n")
    }
}
