// ParentFolder, the one rule for the folder that holds a path: dirname(3)'s answers, "."
// for a name with no slash.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class ParentFolderTests: XCTestCase {
    func testTheFolderOfEachKindOfPath() {
        let cases: [(String, String)] = [
            ("/home/me/.local/share/hostbook/hostbook.db", "/home/me/.local/share/hostbook"),
            ("a/b", "a"),
            // No slash: the current folder, for "" too (dirname(3)).
            ("hostbook.db", "."), ("", "."), (".", "."), ("..", "."),
            // Just under the root, and the root itself.
            ("/etc", "/"), ("/", "/"), ("//", "/"),
            // Trailing and repeated slashes are not names.
            ("a/b/", "a"), ("/a/b//", "/a"), ("a//b", "a"), ("/a//b", "/a"), ("//a", "/"),
            ("./x", "."), ("../x", ".."),
        ]
        for (path, folder) in cases {
            XCTAssertEqual(ParentFolder.of(path), folder, path.debugDescription)
        }
    }

    func testTheAnswerAgreesWithDirname() {
        for path in ["/usr/lib/x", "x", "", "/", "a/b/", "//a//b//", "a/", "/a"] {
            var bytes = Array(path.utf8CString)
            let expected = bytes.withUnsafeMutableBufferPointer { String(cString: dirname($0.baseAddress!)) }
            XCTAssertEqual(ParentFolder.of(path), expected, path.debugDescription)
        }
    }
}
