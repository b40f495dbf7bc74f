// A desktop notification of what happens to a signature that waits for an approval or is
// refused for want of an approver, besides the line on the requester's terminal
// (ApprovalRequest.tellRequester): a program with no terminal (git in an editor) gets it
// too. The freedesktop notification service (org.freedesktop.Notifications, Desktop
// Notifications Specification 1.2) on the session bus, through GLib's `gdbus call`: first
// NameHasOwner, and Notify only when the name has an owner, so a headless machine or a
// desktop without a notification daemon is never sent one. Fire and forget: `post` returns at
// once and a thread does the calls, each with a deadline, so the agent's decision never waits
// on it. The text is the notice line, already escaped for a terminal; the body is escaped
// again as the specification's markup (&, <, >) and every argument is a GVariant string
// literal, so no text can become another argument. No secret is in a notice.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum DesktopNotification {
    public static let service = "org.freedesktop.Notifications"
    /// How long each gdbus call may take (its own --timeout is one second less).
    static let deadlineMilliseconds: Int64 = 3000
    /// How long the daemon shows it (Notify's expire_timeout, milliseconds).
    static let expireMilliseconds = 15000

    /// Posts `line` (a notice that begins "hostbook: ") on a thread of its own; returns at once.
    public static func post(_ line: String) {
        guard getenv("DBUS_SESSION_BUS_ADDRESS") != nil else { return }
        try? Thread.spawnDetached { _ = send(line) }
    }

    /// Sends `line` when the session bus has a notification service; whether Notify was
    /// called and answered. Synchronous: `post` runs it on a thread.
    @discardableResult
    public static func send(_ line: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) }
        guard let gdbus = ExecutablePath.find("gdbus", searchPath: path),
              hasOwner(gdbus: gdbus) else { return false }
        return call(gdbus, notifyArguments(line)) != nil
    }

    /// Whether a program owns org.freedesktop.Notifications on the session bus.
    static func hasOwner(gdbus: String) -> Bool {
        call(gdbus, ["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                     "--method", "org.freedesktop.DBus.NameHasOwner", literal(service)]) == "(true,)\n"
    }

    /// gdbus's arguments after `call --session --timeout N`: Notify(app_name, replaces_id,
    /// app_icon, summary, body, actions, hints, expire_timeout), each typed, so gdbus needs no
    /// introspection to read them.
    static func notifyArguments(_ line: String) -> [String] {
        let (summary, body) = text(line)
        return ["--dest", service, "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.Notify",
                literal("hostbook"), "uint32 0", literal("dialog-password"), literal(summary), literal(markup(body)),
                "@as []", "@a{sv} {}", "int32 \(expireMilliseconds)"]
    }

    /// The summary and body of a notice: "hostbook" and the line without its "hostbook: ".
    static func text(_ line: String) -> (summary: String, body: String) {
        let prefix = "hostbook: "
        return ("hostbook", line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line)
    }

    /// A GVariant text-format string literal of `s` (single quotes, `\` and `'` escaped).
    static func literal(_ s: String) -> String {
        var out = "'"
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "'"
    }

    /// `s` as the specification's body markup shows it: &, < and > as entities.
    static func markup(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Runs `gdbus call --session` with `arguments`; its output, or nil when it failed or
    /// did not end in time.
    private static func call(_ gdbus: String, _ arguments: [String]) -> String? {
        let argv = ["gdbus", "call", "--session", "--timeout", String(deadlineMilliseconds / 1000 - 1)] + arguments
        guard let r = try? CapturedProcess.run(gdbus, argv, limit: 1 << 12, timeoutMilliseconds: deadlineMilliseconds),
              r.status.exitCode == 0 else { return nil }
        return String(decoding: r.stdout, as: UTF8.self)
    }
}
