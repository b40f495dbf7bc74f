// A folder's names: every entry but "." and "..", links and subfolders included; nil for
// what cannot be read as a folder.
import System
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class FolderNamesTests: XCTestCase {
    func testEveryEntryButDotAndDotDot() throws {
        let folder = try TempFolder()
        XCTAssertEqual(FolderNames.of(folder.path), [])
        writeFile(folder.file("a"), "x")
        writeFile(folder.file(".hidden"), "x")
        XCTAssertEqual(mkdir(folder.file("sub"), 0o700), 0)
        XCTAssertEqual(symlink("/nonexistent", folder.file("link")), 0)
        XCTAssertEqual(FolderNames.of(folder.path)?.sorted(), [".hidden", "a", "link", "sub"])
    }

    func testWhatIsNoReadableFolderIsNil() throws {
        let folder = try TempFolder()
        writeFile(folder.file("file"), "x")
        XCTAssertNil(FolderNames.of(folder.file("file")))
        XCTAssertNil(FolderNames.of(folder.file("missing")))
    }
}
