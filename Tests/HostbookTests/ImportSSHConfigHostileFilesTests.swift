// `hostbook import-ssh-config` on hostile layouts (issue 18), with the real binary: an
// Include, an IdentityFile or its .pub that is a FIFO with no writer is passed over with a
// warning instead of holding the import for ever (the old code blocked in open(2): these
// tests then fail by the runner's timeout, not by a time bound of their own; a child process
// blocks, not the test runner). The Include bomb and the pattern-block bound run in-process:
// HostbookLogicTests/ImportSSHConfigLoadBoundTests.
import Foundation
import XCTest

final class ImportSSHConfigHostileFilesTests: XCTestCase {
    func fixture() throws -> HostbookFixture {
        let fx = try HostbookFixture()
        // Relative Include paths and `~` are taken from this HOME, never the real one.
        fx.environment["HOME"] = fx.dir.file("home")
        try FileManager.default.createDirectory(atPath: fx.dir.file("home/.ssh"), withIntermediateDirectories: true)
        return fx
    }

    @discardableResult
    func write(_ fx: HostbookFixture, _ name: String, _ text: String) throws -> String {
        let path = fx.dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A FIFO no one writes to: open(2) without O_NONBLOCK waits on it for ever.
    @discardableResult
    func fifo(_ fx: HostbookFixture, _ name: String) throws -> String {
        let path = fx.dir.file(name)
        XCTAssertEqual(mkfifo(path, 0o644), 0, String(cString: strerror(errno)))
        return path
    }

    func report(_ r: HostbookResult, file: StaticString = #filePath, line: UInt = #line) throws -> [String: [String: Any]] {
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any], file: file, line: line)
        let hosts = object["hosts"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: hosts.map { ($0["alias"] as? String ?? "", $0) })
    }

    /// Many hosts and many pattern blocks: each host is resolved against every pattern
    /// block, so the resolution is bounded as well (2,000 hosts × 1,001 blocks).
    func testAFIFOIncludeIsPassedOverWithAWarning() throws {
        let fx = try fixture()
        let pipe = try fifo(fx, "pipe.conf")
        let root = try write(fx, "config", "Include \(pipe)\nHost after\n  HostName 192.0.2.2\n")
        let r = try fx.run(["import-ssh-config", root, "--json"])
        XCTAssertEqual(r.stderr, "hostbook: warning: not reading the included file '\(pipe)': it is a FIFO, not a regular file\n")
        XCTAssertEqual(try report(r)["after"]?["hostname"] as? String, "192.0.2.2")
        // Matched by a glob as well.
        let globbed = try write(fx, "config2", "Include \(fx.dir.file("pipe*"))\nHost g\n  HostName 192.0.2.3\n")
        let g = try fx.run(["import-ssh-config", globbed, "--dry-run", "--json"])
        XCTAssertEqual(g.stderr, r.stderr)
        XCTAssertEqual(try report(g)["g"]?["hostname"] as? String, "192.0.2.3")
    }

    func testAFIFOAsTheConfigurationIsRefused() throws {
        let fx = try fixture()
        let pipe = try fifo(fx, "config")
        try fx.fails(["import-ssh-config", pipe], status: 1, stderr: """
            hostbook: cannot read '\(pipe)': it is a FIFO, not a regular file
            Name a configuration file to import: hostbook import-ssh-config FILE

            """)
        XCTAssertEqual(fx.files(), [])
    }

    func testAFIFOIdentityFileOrPubIsReportedNotRead() throws {
        let fx = try fixture()
        let keyPipe = try fifo(fx, "id_pipe")
        let key = try write(fx, "id_half", "not read\n")
        let pubPipe = try fifo(fx, "id_half.pub")
        let root = try write(fx, "config", """
            Host k1
              HostName 192.0.2.4
              IdentityFile \(keyPipe)
            Host k2
              HostName 192.0.2.5
              IdentityFile \(key)

            """)
        let hosts = try report(fx.run(["import-ssh-config", root, "--json"]))
        XCTAssertEqual(hosts["k1"]?["not_imported"] as? [String], ["IdentityFile \(keyPipe): it is a FIFO, not a regular file; not read"])
        XCTAssertEqual(hosts["k2"]?["not_imported"] as? [String], ["IdentityFile \(key): \(pubPipe) is a FIFO, not a regular file; not read"])
        XCTAssertEqual(hosts["k1"]?["hostname"] as? String, "192.0.2.4")
    }
}
