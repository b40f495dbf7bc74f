// The desktop notification of an approval notice (DesktopNotification), on the private
// session bus of scripts/with-keyring: with no notification service nothing is called; with a
// real one (dunst on a private Xvfb display) Notify is called with the notice, escaped, as
// dbus-monitor on that bus sees it.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import Sessions

final class DesktopNotificationTests: XCTestCase {
    private func needsBus() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a session bus (scripts/with-keyring)")
    }

    private func which(_ tool: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func start(_ tool: String, _ args: [String], output: FileHandle? = nil, environment: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try XCTUnwrap(which(tool), "\(tool) is not installed (scripts/setup)"))
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardOutput = output ?? FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    private func stop(_ p: Process) {
        if p.isRunning { kill(p.processIdentifier, SIGTERM) }
        p.waitUntilExit()
    }

    /// dbus-monitor's lines for Notify calls on the session bus while `body` runs.
    private func monitoringNotify(_ body: () throws -> Void) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("monitor").path
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        let monitor = try start("dbus-monitor", ["--session", "type='signal',member='NameLost'",
                                                 "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"], output: handle)
        defer { stop(monitor); try? handle.close() }
        func seen() -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        // Monitoring once the bus told it it lost its own name (it became a monitor).
        var ready = false
        for _ in 0..<500 where !ready { ready = seen().contains("member=NameLost"); if !ready { usleep(10_000) } }
        XCTAssertTrue(ready, "dbus-monitor is monitoring")
        try body()
        // A ping through the bus after the call: dbus-monitor has printed everything before it.
        _ = try start("gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                "--method", "org.freedesktop.DBus.GetId"]).waitUntilExit()
        stop(monitor)
        return seen()
    }

    func testTheNoticeIsEscapedAsTextAndMarkup() {
        let line = "hostbook: waiting for approval of 'it's <b>&\\' → web in 'hostbook agent approve'"
        XCTAssertEqual(DesktopNotification.text(line).summary, "hostbook")
        XCTAssertEqual(DesktopNotification.text(line).body, "waiting for approval of 'it's <b>&\\' → web in 'hostbook agent approve'")
        XCTAssertEqual(DesktopNotification.markup("<b>&x</b>"), "&lt;b&gt;&amp;x&lt;/b&gt;")
        XCTAssertEqual(DesktopNotification.literal("a'b\\c → d"), "'a\\'b\\\\c → d'")
        let args = DesktopNotification.notifyArguments(line)
        XCTAssertEqual(args.suffix(8), ["'hostbook'", "uint32 0", "'dialog-password'", "'hostbook'",
                                        "'waiting for approval of \\'it\\'s &lt;b&gt;&amp;\\\\\\' → web in \\'hostbook agent approve\\''",
                                        "@as []", "@a{sv} {}", "int32 15000"])
    }

    func testNoNotificationServiceMeansNoCall() throws {
        try needsBus()
        try XCTSkipIf(DesktopNotification.hasOwner(gdbus: try XCTUnwrap(which("gdbus"))), "a notification service already runs on this bus")
        var sent = true
        let seen = try monitoringNotify { sent = DesktopNotification.send("hostbook: refused: no approver; run 'hostbook agent approve' or set SSH_ASKPASS") }
        XCTAssertFalse(sent)
        XCTAssertFalse(seen.contains("member=Notify"), seen)
    }

    func testANotificationServiceIsSentTheNotice() throws {
        try needsBus()
        let gdbus = try XCTUnwrap(which("gdbus"))
        try XCTSkipIf(DesktopNotification.hasOwner(gdbus: gdbus), "a notification service already runs on this bus")
        // A private display: Xvfb writes its number to standard output when it is ready.
        let pipe = Pipe()
        let xvfb = try start("Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"], output: pipe.fileHandleForWriting)
        defer { stop(xvfb) }
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = pipe.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            number += String(decoding: byte, as: UTF8.self)
        }
        let display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotEqual(display, ":", "Xvfb gave no display number")
        let dunst = try start("dunst", [], environment: ["DISPLAY": display])
        defer { stop(dunst) }
        let wait = try start("gdbus", ["wait", "--session", "--timeout", "10", DesktopNotification.service])
        wait.waitUntilExit()
        XCTAssertEqual(wait.terminationStatus, 0, "dunst did not take \(DesktopNotification.service)")

        let line = "hostbook: waiting for approval of 'deploy <1>' → web in 'hostbook agent approve'"
        var sent = false
        let seen = try monitoringNotify { sent = DesktopNotification.send(line) }
        XCTAssertTrue(sent)
        XCTAssertTrue(seen.contains("member=Notify"), seen)
        XCTAssertTrue(seen.contains("string \"waiting for approval of 'deploy &lt;1&gt;' → web in 'hostbook agent approve'\""), seen)
        XCTAssertTrue(seen.contains("string \"hostbook\""), seen)
    }
}
