// `hostbook import-ssh-config` on hostile layouts (issue 18), in-process (InProcessCommand
// runs Hostbook.main): an Include, an IdentityFile or its .pub that is a FIFO with no writer
// is passed over with a warning instead of holding the import for ever. The old code blocked
// in open(2) on it; so that such a regression fails the test instead of holding the test
// run, a watchdog opens every FIFO of the test for writing (and closes it) if the test has
// not ended after a minute: the blocked open then returns and the import reads the FIFO
// empty, which the assertions see (checked on a copy of Sources without O_NONBLOCK). Moved from HostbookTests/ImportSSHConfigHostileFilesTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportSSHConfigHostileFilesLogicTests: XCTestCase {
    var hb: InProcessCommand!
    private var watchdog: FIFOWatchdog!

    override func setUpWithError() throws {
        hb = try InProcessCommand()
        // Relative Include paths and `~` are taken from the call's HOME, never the real one.
        try FileManager.default.createDirectory(atPath: hb.dir.file("home/.ssh"), withIntermediateDirectories: true)
        watchdog = FIFOWatchdog()
    }

    override func tearDown() {
        watchdog?.finish()
        watchdog = nil
        hb = nil
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = hb.dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A FIFO no one writes to: open(2) without O_NONBLOCK waits on it for ever.
    @discardableResult
    func fifo(_ name: String) throws -> String {
        let path = hb.dir.file(name)
        XCTAssertEqual(mkfifo(path, 0o644), 0, String(cString: strerror(errno)))
        watchdog.watch(path)
        return path
    }

    func testAFIFOIncludeIsPassedOverWithAWarning() throws {
        let pipe = try fifo("pipe.conf")
        let root = try write("config", "Include \(pipe)\nHost after\n  HostName 192.0.2.2\n")
        let r = try hb.run(["import-ssh-config", root, "--json"])
        XCTAssertEqual(r.stderr, "hostbook: warning: not reading the included file '\(pipe)': it is a FIFO, not a regular file\n")
        XCTAssertEqual(try importedHosts(r)["after"]?["hostname"] as? String, "192.0.2.2")
        // Matched by a glob as well.
        let globbed = try write("config2", "Include \(hb.dir.file("pipe*"))\nHost g\n  HostName 192.0.2.3\n")
        let g = try hb.run(["import-ssh-config", globbed, "--dry-run", "--json"])
        XCTAssertEqual(g.stderr, r.stderr)
        XCTAssertEqual(try importedHosts(g)["g"]?["hostname"] as? String, "192.0.2.3")
    }

    func testAFIFOAsTheConfigurationIsRefused() throws {
        let pipe = try fifo("config")
        try hb.fails(["import-ssh-config", pipe], status: 1, stderr: """
            hostbook: cannot read '\(pipe)': it is a FIFO, not a regular file
            Name a configuration file to import: hostbook import-ssh-config FILE

            """)
        XCTAssertEqual(hb.files(), [])
    }

    func testAFIFOIdentityFileOrPubIsReportedNotRead() throws {
        let keyPipe = try fifo("id_pipe")
        let key = try write("id_half", "not read\n")
        let pubPipe = try fifo("id_half.pub")
        let root = try write("config", """
            Host k1
              HostName 192.0.2.4
              IdentityFile \(keyPipe)
            Host k2
              HostName 192.0.2.5
              IdentityFile \(key)

            """)
        let hosts = try importedHosts(hb.run(["import-ssh-config", root, "--json"]))
        XCTAssertEqual(hosts["k1"]?["not_imported"] as? [String], ["IdentityFile \(keyPipe): it is a FIFO, not a regular file; not read"])
        XCTAssertEqual(hosts["k2"]?["not_imported"] as? [String], ["IdentityFile \(key): \(pubPipe) is a FIFO, not a regular file; not read"])
        XCTAssertEqual(hosts["k1"]?["hostname"] as? String, "192.0.2.4")
    }
}

/// When `finish` has not been called within a minute, opens each watched FIFO for writing
/// (O_RDWR: never blocks) and closes it again, every 100 ms until `finish`: an open(2)
/// blocked on one returns, the read that follows ends at once, and so does the next open of
/// the same FIFO.
private final class FIFOWatchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    private let done = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in
            guard done.wait(timeout: .now() + 60) == .timedOut else { return }
            repeat {
                lock.lock()
                let watched = paths
                lock.unlock()
                for path in watched {
                    let fd = open(path, O_RDWR | O_NONBLOCK)
                    if fd >= 0 { close(fd) }
                }
            } while done.wait(timeout: .now() + 0.1) == .timedOut
        }.start()
    }

    func watch(_ path: String) { lock.lock(); paths.append(path); lock.unlock() }

    func finish() { done.signal() }
}
