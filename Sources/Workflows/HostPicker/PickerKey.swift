// The keys the host picker understands, read from the bytes a terminal sends in raw mode:
// printable text (UTF-8), Backspace, Ctrl-U, Ctrl-W, Enter, Esc, Ctrl-C, and the arrow,
// page and home/end keys in both their CSI (`ESC [ A`) and SS3 (`ESC O A`) spellings, plus
// Ctrl-P / Ctrl-N as up and down (as in readline, fzf and Emacs). Pure: bytes in, keys out.

public enum PickerKey: Equatable, Sendable {
    case text(String)
    case backspace, deleteWord, clearFilter
    case up, down, pageUp, pageDown, first, last
    case enter, escape, interrupt

    /// Takes the complete keys off the front of `bytes` and returns them; an unfinished
    /// escape sequence or UTF-8 character stays in `bytes` for the next read. With `final`
    /// (no more bytes came in time) a lone ESC is the Esc key and broken text is dropped.
    /// Control bytes and sequences the picker has no use for are skipped.
    public static func decode(_ bytes: inout [UInt8], final: Bool) -> [PickerKey] {
        var keys: [PickerKey] = []
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty { keys.append(.text(String(decoding: text, as: UTF8.self))); text = [] }
        }
        scan: while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x1B:
                guard i + 1 < bytes.count else {
                    if final { flushText(); keys.append(.escape); i += 1; continue scan }
                    break scan
                }
                let next = bytes[i + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
                    // ESC then another key (Alt-key, or Esc typed quickly before a letter): Esc.
                    flushText(); keys.append(.escape); i += 1; continue scan
                }
                // A sequence: parameters (0x30–0x3F), intermediates (0x20–0x2F), a final byte (0x40–0x7E).
                var j = i + 2
                while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else {
                    if final { i = bytes.count; continue scan }   // cut short: dropped
                    break scan
                }
                flushText()
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                switch (bytes[j], params) {
                case (UInt8(ascii: "A"), _): keys.append(.up)
                case (UInt8(ascii: "B"), _): keys.append(.down)
                case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): keys.append(.first)
                case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): keys.append(.last)
                case (UInt8(ascii: "~"), "5"): keys.append(.pageUp)
                case (UInt8(ascii: "~"), "6"): keys.append(.pageDown)
                case (UInt8(ascii: "M"), _) where next == UInt8(ascii: "O"): keys.append(.enter)   // keypad Enter
                default: break
                }
                i = j + 1
            case 0x0D, 0x0A: flushText(); keys.append(.enter); i += 1
            case 0x7F, 0x08: flushText(); keys.append(.backspace); i += 1
            case 0x03: flushText(); keys.append(.interrupt); i += 1
            case 0x07: flushText(); keys.append(.escape); i += 1          // Ctrl-G, as in Emacs and fzf
            case 0x10: flushText(); keys.append(.up); i += 1              // Ctrl-P
            case 0x0E: flushText(); keys.append(.down); i += 1            // Ctrl-N
            case 0x15: flushText(); keys.append(.clearFilter); i += 1     // Ctrl-U
            case 0x17: flushText(); keys.append(.deleteWord); i += 1      // Ctrl-W
            case 0x00..<0x20: i += 1                                      // other controls: nothing
            case 0x80...:
                // A UTF-8 character: its lead byte says how long it is.
                let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                guard i + length <= bytes.count else {
                    if final { i = bytes.count; continue scan }
                    break scan
                }
                let character = String(decoding: bytes[i..<(i + length)], as: UTF8.self)
                if length > 1, !character.unicodeScalars.contains(where: { $0 == "\u{FFFD}" }) { text += bytes[i..<(i + length)] }
                i += length
            default:
                text.append(b)
                i += 1
            }
        }
        flushText()
        bytes.removeFirst(i)
        return keys
    }
}
