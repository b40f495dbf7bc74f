// `hostbook import-ssh-config` on an Include bomb and on many hosts times many pattern
// blocks, in-process (InProcessCommand runs Hostbook.main): the load's bound ends it, exit
// 5, nothing written. Moved from HostbookTests/ImportSSHConfigHostileFilesTests; the FIFO
// cases: ImportSSHConfigHostileFilesLogicTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportSSHConfigLoadBoundTests: XCTestCase {
    func fixture() throws -> InProcessCommand {
        let fx = try InProcessCommand()
        // Relative Include paths and `~` are taken from the fixture's HOME (FOLDER/home),
        // never the real one.
        try FileManager.default.createDirectory(atPath: fx.dir.file("home/.ssh"), withIntermediateDirectories: true)
        return fx
    }

    @discardableResult
    func write(_ fx: InProcessCommand, _ name: String, _ text: String) throws -> String {
        let path = fx.dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testAnIncludeBombIsRefusedByTheLoadBound() throws {
        let fx = try fixture()
        for i in 0..<16 {
            try write(fx, "f\(i)", String(repeating: "Include \(fx.dir.file("f\(i + 1)"))\n", count: 4))
        }
        try write(fx, "f16", "Host bomb\n  HostName 192.0.2.1\n")
        let root = fx.dir.file("f0")
        try fx.fails(["import-ssh-config", root], status: 5, stderr: """
            hostbook: '\(root)' is too large to import: with its Includes it is more than 4096 files (a file included several times counts each time)
            Look for files included many times, or import parts of the configuration on their own. Nothing was imported.

            """)
        XCTAssertEqual(fx.files(), [], "no database was created")
        // The same layout with one Include per file is an ordinary import.
        for i in 0..<16 { try write(fx, "f\(i)", "Include \(fx.dir.file("f\(i + 1)"))\n") }
        XCTAssertEqual(try importedHosts(fx.run(["import-ssh-config", root, "--json"]))["bomb"]?["hostname"] as? String, "192.0.2.1")
    }

    func testManyHostsTimesManyPatternBlocksIsRefused() throws {
        let fx = try fixture()
        let text = (0..<2000).map { "Host h\($0)\n  HostName 192.0.2.1\n" }.joined() + (0..<1001).map { "Host *.p\($0)\n  User u\n" }.joined()
        let root = try write(fx, "config", text)
        try fx.fails(["import-ssh-config", root], status: 5, stderr: """
            hostbook: '\(root)' is too large to import: resolving its 2000 hosts against its 3001 blocks is more than 2000000 checks (2004000)
            Look for files included many times, or import parts of the configuration on their own. Nothing was imported.

            """)
    }
}
