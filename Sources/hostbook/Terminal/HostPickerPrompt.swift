// The host picker on the terminal: HostPicker's state, drawn by HostPickerScreen, fed with
// keys read in raw mode (RawTerminal, PickerKey). Redrawn after each key and when the
// window's size changes (checked on every wake-up, at least ten times a second).
import CommandLineKit
#if canImport(Glibc)
import Glibc
#endif
import Workflows

enum HostPickerPrompt {
    /// How long to wait after a lone ESC for the rest of an escape sequence (an arrow key
    /// arrives as ESC [ B, usually in one read) before taking it as the Esc key.
    static let escapeWait: Int32 = 50

    /// Shows the picker and returns the chosen host's name. Leaving (Esc, Ctrl-C, Ctrl-G)
    /// is thrown as TerminalInterrupted(SIGINT): exit 130, nothing printed, as fzf does.
    static func choose(from entries: [HostPicker.Entry], color: Bool) throws -> String {
        try RawTerminal.with { terminal in
            var picker = HostPicker(entries: entries)
            var screen = HostPickerScreen(entries: entries)
            var size = terminal.size
            // The screen is drawn raw: its escape codes are hostbook's, and every host's
            // fields were escaped when HostPickerScreen laid them out.
            try terminal.write(.raw(screen.render(&picker, columns: size.columns, height: size.rows, color: color)))
            var unread: [UInt8] = []
            while true {
                let event = try terminal.next(milliseconds: unread.isEmpty ? 100 : escapeWait)
                var final = false
                switch event {
                case .bytes(let bytes): unread += bytes
                case .timeout: final = true
                }
                var redraw = false
                for key in PickerKey.decode(&unread, final: final) {
                    switch picker.press(key, page: HostPickerScreen.listRows(height: size.rows)) {
                    case .stay: redraw = true
                    case .choose(let name): return name
                    case .leave: throw TerminalInterrupted(signal: SIGINT)
                    }
                }
                let now = terminal.size
                if now != size { size = now; redraw = true }
                if redraw { try terminal.write(.raw(screen.render(&picker, columns: size.columns, height: size.rows, color: color))) }
            }
        }
    }
}
