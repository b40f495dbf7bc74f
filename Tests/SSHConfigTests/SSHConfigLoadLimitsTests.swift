// The loader's bounds on a whole load (issue 18): ssh limits only the Include nesting, so
// 17 files each including the next four times were 4^16 file loads (480 MB in 30 s in an
// import). The work is counted, not timed: the reads the loader asks for, and the error it
// stops with. Files live in memory, handed to the loader through a counting `access`.
import SSHConfig
import XCTest

final class SSHConfigLoadLimitsTests: XCTestCase {
    /// In-memory files and how often the loader read each one.
    final class Files: @unchecked Sendable {
        var contents: [String: String]
        var reads: [String: Int] = [:]

        init(_ contents: [String: String]) { self.contents = contents }

        struct Missing: Error {}

        var access: SSHConfigFileAccess {
            SSHConfigFileAccess(
                read: { [self] path in
                    reads[path, default: 0] += 1
                    guard let text = contents[path] else { throw Missing() }
                    return Array(text.utf8)
                },
                glob: { [self] pattern in contents[pattern] == nil ? [] : [pattern] })
        }
    }

    /// /f0 … /f16, each including the next four times; the last one names a host.
    static func includeBomb(linesPerInclude: Bool) -> Files {
        var files: [String: String] = [:]
        for i in 0..<16 {
            let next = "/f\(i + 1)"
            files["/f\(i)"] = linesPerInclude ? String(repeating: "Include \(next)\n", count: 4) : "Include \(next) \(next) \(next) \(next)\n"
        }
        files["/f16"] = "Host bomb\n  HostName 192.0.2.1\n"
        return Files(files)
    }

    func testTheIncludeBombStopsAtTheFileBoundAndReadsEachFileOnce() {
        for lines in [true, false] {
            let files = Self.includeBomb(linesPerInclude: lines)
            XCTAssertThrowsError(try SSHConfigLoader.load("/f0", access: files.access)) { error in
                let e = error as? SSHConfigError
                XCTAssertEqual(e?.kind, .tooLarge)
                XCTAssertEqual(e?.file, "/f0")
                XCTAssertEqual(e?.message, "with its Includes it is more than 4096 files (a file included several times counts each time)")
            }
            XCTAssertEqual(files.reads.count, 17)
            XCTAssertEqual(Set(files.reads.values), [1], "each file is read once: \(files.reads)")
        }
    }

    /// Below the bound the same layout loads, each file still read once, and a file included
    /// twice applies twice (under each block that includes it), as in ssh.
    func testAFileIncludedTwiceIsReadOnceAndAppliesTwice() throws {
        let files = Files([
            "/root": "Host x\n  Include /common\nHost y\n  Include /common\nHost z\n  HostName 192.0.2.9\n",
            "/common": "  User shared\n  Port 2222\n",
        ])
        let config = try SSHConfigLoader.load("/root", access: files.access)
        XCTAssertEqual(files.reads, ["/root": 1, "/common": 1])
        XCTAssertEqual(config.files, ["/root", "/common"])
        let resolver = SSHConfigResolver(configuration: config, localUser: "me")
        for alias in ["x", "y"] {
            XCTAssertEqual(resolver.resolve(alias).user, "shared", alias)
            XCTAssertEqual(resolver.resolve(alias).port, 2222, alias)
        }
        XCTAssertNil(resolver.resolve("z").user)
    }

    func testBytesAndLinesAreBoundedAcrossRepeats() {
        // The root (33 bytes, 3 lines) and 3 Includes of a 41-byte, 5-line file: 4 files, 156 bytes, 18 lines.
        let files = Files(["/root": "Include /a\nInclude /a\nInclude /a\n", "/a": "# 1\n# 2\n# 3\nHost a\n" + String(repeating: "#", count: 21) + "\n"])
        XCTAssertNoThrow(try SSHConfigLoader.load("/root", access: files.access, limits: SSHConfigLoadLimits(files: 4, bytes: 200, lines: 20)))
        XCTAssertThrowsError(try SSHConfigLoader.load("/root", access: files.access, limits: SSHConfigLoadLimits(files: 3, bytes: 200, lines: 20))) {
            XCTAssertEqual(($0 as? SSHConfigError)?.message, "with its Includes it is more than 3 files (a file included several times counts each time)")
        }
        XCTAssertThrowsError(try SSHConfigLoader.load("/root", access: files.access, limits: SSHConfigLoadLimits(files: 4, bytes: 150, lines: 20))) {
            XCTAssertEqual(($0 as? SSHConfigError)?.message, "with its Includes it is more than 150 bytes (a file included several times counts each time)")
        }
        XCTAssertThrowsError(try SSHConfigLoader.load("/root", access: files.access, limits: SSHConfigLoadLimits(files: 4, bytes: 200, lines: 14))) {
            XCTAssertEqual(($0 as? SSHConfigError)?.message, "with its Includes it is more than 14 lines (a file included several times counts each time)")
        }
        // One file past the byte bound is refused before it is split into lines.
        let big = Files(["/root": String(repeating: "Host h\n", count: 100)])
        XCTAssertThrowsError(try SSHConfigLoader.load("/root", access: big.access, limits: SSHConfigLoadLimits(files: 4, bytes: 699, lines: 1000))) {
            XCTAssertEqual(($0 as? SSHConfigError)?.kind, .tooLarge)
        }
    }

    /// Resolving every host against every block with a pattern is bounded: 2,000 hosts and
    /// 1,001 pattern blocks are 2,000 × 1,001 + 2,000 (each host's own block) checks.
    func testHostsTimesPatternBlocksAreBounded() throws {
        let hosts = (0..<2000).map { "Host h\($0)\n  HostName 192.0.2.1\n" }.joined()
        let patterns = { (n: Int) in (0..<n).map { "Host *.p\($0)\n  User u\n" }.joined() }
        XCTAssertThrowsError(try SSHConfigLoader.load("/root", access: Files(["/root": hosts + patterns(1001)]).access)) {
            XCTAssertEqual(($0 as? SSHConfigError)?.kind, .tooLarge)
            XCTAssertEqual(($0 as? SSHConfigError)?.message, "resolving its 2000 hosts against its 3001 blocks is more than 2000000 checks (2004000)")
        }
        let config = try SSHConfigLoader.load("/root", access: Files(["/root": hosts + patterns(999)]).access)
        XCTAssertEqual(config.resolutionChecks, 2000 * 999 + 2000)
    }

    /// The standard bounds leave room for any hand-written configuration: a nested layout of
    /// 64 files of 300 hosts each, with a few blocks for every host.
    func testARealisticLayoutLoads() throws {
        var contents: [String: String] = ["/root": (0..<64).map { "Include /conf.d/\($0).conf\n" }.joined()
                                                  + "Host *.internal\n  ProxyJump gate\nMatch user admin\n  Port 2222\nHost *\n  ServerAliveInterval 30\n"]
        for f in 0..<64 {
            contents["/conf.d/\(f).conf"] = (0..<300).map { "Host h\(f)-\($0)\n  HostName 10.\(f).\($0 / 256).\($0 % 256)\n  User u\n" }.joined()
        }
        let config = try SSHConfigLoader.load("/root", access: Files(contents).access)
        XCTAssertEqual(config.aliases.count, 64 * 300)
    }
}
