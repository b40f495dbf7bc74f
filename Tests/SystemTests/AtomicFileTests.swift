// Atomic replacement: the new bytes and mode under the name, nothing left beside it, an
// existing file never touched unless replacing was asked for, links written through.
#if canImport(Glibc)
import Glibc
#endif
import System
import TestSupport
import XCTest

final class AtomicFileTests: XCTestCase {
    func testReplaceLeavesOnlyTheNewFileWithItsMode() throws {
        let folder = try TempFolder()
        let path = folder.path + "/config"
        writeFile(path, "old\n", mode: 0o644)
        try AtomicFile.write(path, bytes: Array("new\n".utf8), mode: 0o600, replace: true)
        XCTAssertEqual(readFile(path), "new\n")
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(folder.names(), ["config"])
    }

    func testWithoutReplaceAnExistingFileIsNotTouched() throws {
        let folder = try TempFolder()
        let path = folder.path + "/key"
        writeFile(path, "kept")
        XCTAssertThrowsError(try AtomicFile.write(path, bytes: Array("other".utf8), mode: 0o600)) { error in
            guard case .exists? = error as? AtomicFile.Failure else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(readFile(path), "kept")
        XCTAssertEqual(folder.names(), ["key"])
    }

    func testAFailedBodyLeavesNothing() throws {
        let folder = try TempFolder()
        let path = folder.path + "/new"
        XCTAssertThrowsError(try AtomicFile.write(path, mode: 0o600) { _ in errno = EIO; return false })
        XCTAssertEqual(folder.names(), [])
    }

    func testAMissingFolderIsAnError() throws {
        let folder = try TempFolder()
        XCTAssertThrowsError(try AtomicFile.write(folder.path + "/none/file", bytes: [1], mode: 0o600)) { error in
            guard case .io? = error as? AtomicFile.Failure else { return XCTFail("\(error)") }
        }
    }

    func testLinkTargetFollowsAChainToARegularFile() throws {
        let folder = try TempFolder()
        mkdir(folder.path + "/dotfiles", 0o700)
        writeFile(folder.path + "/dotfiles/config", "x")
        symlink("dotfiles/config", folder.path + "/middle")
        symlink(folder.path + "/middle", folder.path + "/config")
        XCTAssertEqual(try AtomicFile.linkTarget(of: folder.path + "/config"), folder.path + "/dotfiles/config")
        XCTAssertNil(try AtomicFile.linkTarget(of: folder.path + "/absent"))
        symlink("nowhere", folder.path + "/dangling")
        XCTAssertThrowsError(try AtomicFile.linkTarget(of: folder.path + "/dangling"))
        symlink("loop", folder.path + "/loop")
        XCTAssertThrowsError(try AtomicFile.linkTarget(of: folder.path + "/loop"))
    }

    func testTemporaryNamesAreNotPredictable() throws {
        // The name is created with O_EXCL: a file planted under one guessed name is skipped.
        let folder = try TempFolder()
        let path = folder.path + "/f"
        for _ in 0..<20 { try AtomicFile.write(path, bytes: [1], mode: 0o600, replace: true) }
        XCTAssertEqual(folder.names(), ["f"])
    }
}
