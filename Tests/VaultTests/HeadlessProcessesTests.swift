// HeadlessProcesses.stop ends only the process it was told about: the program named, and
// (when given) the start time recorded when it was checked, so a pid another process took
// meanwhile is left alone. A real dbus-daemon is the process.
import Foundation
import System
@testable import Vault
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class HeadlessProcessesTests: XCTestCase {
    var temp: TempFolder!
    var folder = ""

    override func setUpWithError() throws {
        temp = try TempFolder()
        folder = temp.path
    }

    override func tearDownWithError() throws {
        temp = nil
    }

    func testStopLeavesAProcessThatStartedAtAnotherTimeAlone() throws {
        let environment = ProcessInfo.processInfo.environment
        let pid = try HeadlessProcesses.startBus(socket: folder + "/bus", environment: environment)
        let started = try XCTUnwrap(ProcessState.startTime(pid))
        // The same pid and program, but not the start time recorded: another process.
        HeadlessProcesses.stop(pid, expecting: "dbus-daemon", startedAt: started &+ 1)
        XCTAssertTrue(ProcessState.isRunning(pid))
        XCTAssertTrue(HeadlessProcesses.isStill(pid, name: "dbus-daemon", startedAt: started))
        // Another program's name: left alone too.
        HeadlessProcesses.stop(pid, expecting: "gnome-keyring-daemon", startedAt: started)
        XCTAssertTrue(ProcessState.isRunning(pid))
        // The one recorded: stopped, and waited for.
        HeadlessProcesses.stop(pid, expecting: "dbus-daemon", startedAt: started)
        XCTAssertFalse(ProcessState.isRunning(pid))
        XCTAssertFalse(HeadlessProcesses.isStill(pid, name: "dbus-daemon", startedAt: started))
    }
}
