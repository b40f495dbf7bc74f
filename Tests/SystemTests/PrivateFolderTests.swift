// PrivateFolder, the one way hostbook makes a folder of its own (mkdir -p with 0700).
#if canImport(Glibc)
import Glibc
#endif
import System
import TestSupport
import XCTest

final class PrivateFolderTests: XCTestCase {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    func testMissingParentsAndTheFolderAreMade0700() throws {
        let folder = try TempFolder()
        let old = umask(0o022)
        defer { umask(old) }
        try PrivateFolder.make(folder.path + "/a/b/c")
        XCTAssertEqual(mode(folder.path + "/a"), 0o700)
        XCTAssertEqual(mode(folder.path + "/a/b"), 0o700)
        XCTAssertEqual(mode(folder.path + "/a/b/c"), 0o700)
    }

    func testParentsTakeTheModeAskedFor() throws {
        let folder = try TempFolder()
        let old = umask(0o022)
        defer { umask(old) }
        try PrivateFolder.make(folder.path + "/share/hostbook", parentMode: 0o755)
        XCTAssertEqual(mode(folder.path + "/share"), 0o755)
        XCTAssertEqual(mode(folder.path + "/share/hostbook"), 0o700)
    }

    func testAnExistingFolderKeepsItsMode() throws {
        let folder = try TempFolder()
        XCTAssertEqual(mkdir(folder.path + "/open", 0o755), 0)
        XCTAssertEqual(chmod(folder.path + "/open", 0o755), 0)
        try PrivateFolder.make(folder.path + "/open")
        XCTAssertEqual(mode(folder.path + "/open"), 0o755)
        try PrivateFolder.make(folder.path + "/open/inner")
        XCTAssertEqual(mode(folder.path + "/open/inner"), 0o700)
    }

    func testAFailureNamesTheFolderThatCouldNotBeMade() throws {
        let folder = try TempFolder()
        let file = folder.path + "/file"
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertThrowsError(try PrivateFolder.make(file + "/sub/deeper")) { error in
            guard let failure = error as? PrivateFolder.Failure else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.path, file + "/sub")
            XCTAssertEqual(failure.errno, Errno(ENOTDIR))
        }
        XCTAssertEqual(folder.names(), ["file"])
    }
}
