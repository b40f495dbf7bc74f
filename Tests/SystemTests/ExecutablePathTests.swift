// PATH lookup as execvp does it: folders in order, only executable regular files.
#if canImport(Glibc)
import Glibc
#endif
import System
import TestSupport
import XCTest

final class ExecutablePathTests: XCTestCase {
    func testFirstExecutableRegularFileWins() throws {
        let folder = try TempFolder()
        for d in ["a", "b", "c"] { mkdir(folder.path + "/" + d, 0o700) }
        writeFile(folder.path + "/a/tool", "#!/bin/sh\n", mode: 0o644)   // not executable
        mkdir(folder.path + "/b/tool", 0o700)                             // a folder
        writeFile(folder.path + "/c/tool", "#!/bin/sh\n", mode: 0o755)
        let path = [folder.path + "/a", folder.path + "/b", folder.path + "/c"].joined(separator: ":")
        if getuid() != 0 {
            XCTAssertEqual(ExecutablePath.find("tool", searchPath: path), folder.path + "/c/tool")
        } else {
            // root may execute a file with no x bit only if some x bit is set: still c.
            XCTAssertEqual(ExecutablePath.find("tool", searchPath: path), folder.path + "/c/tool")
        }
        XCTAssertNil(ExecutablePath.find("absent", searchPath: path))
    }

    func testUnsetOrEmptyPathIsTheDefault() {
        XCTAssertEqual(ExecutablePath.find("sh", searchPath: nil), ExecutablePath.find("sh", searchPath: ExecutablePath.defaultSearchPath))
        XCTAssertEqual(ExecutablePath.find("sh", searchPath: ""), ExecutablePath.find("sh", searchPath: ExecutablePath.defaultSearchPath))
        XCTAssertNotNil(ExecutablePath.find("sh", searchPath: nil))
    }

    func testANameWithASlashIsNotSearched() {
        XCTAssertEqual(ExecutablePath.find("/bin/sh", searchPath: "/nonexistent"), "/bin/sh")
        XCTAssertNil(ExecutablePath.find("/nonexistent/sh", searchPath: "/bin"))
    }

    func testAbsolute() {
        XCTAssertEqual(ExecutablePath.absolute("/x/y"), "/x/y")
        XCTAssertTrue(ExecutablePath.absolute("y").hasPrefix("/"))
        XCTAssertTrue(ExecutablePath.absolute("y").hasSuffix("/y"))
    }
}
