// ControllingTerminal.open: /dev/tty opened when the process has a controlling terminal
// (then it is a terminal, read and written), nil when it has none, as open(2) itself says.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class ControllingTerminalTests: XCTestCase {
    func testOpensTheControllingTerminalOnlyWhenThereIsOne() {
        let direct = open("/dev/tty", O_RDWR | O_NOCTTY)
        defer { if direct >= 0 { close(direct) } }
        let tty = ControllingTerminal.open()
        defer { tty?.close() }
        XCTAssertEqual(tty != nil, direct >= 0)
        if let tty {
            XCTAssertTrue(tty.isTerminal)
            XCTAssertNotEqual(fcntl(tty.rawValue, F_GETFD) & FD_CLOEXEC, 0, "not inherited by a program it starts")
        }
    }
}
