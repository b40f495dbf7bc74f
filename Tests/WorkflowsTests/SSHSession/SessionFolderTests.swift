// The session's folder (Workflows' SessionFolder), in-process on the real file system: a
// private folder of its own, files that are new and the session's only, and nothing left
// behind, ssh's leftovers included; a failure is a SSHSessionRefusal carrying the raw path.
import Foundation
import TestSupport
import Workflows
import XCTest

final class SessionFolderTests: XCTestCase {
    func testFilesAreNewAndPrivateInAPrivateFolderAndAllIsRemoved() throws {
        let parent = try TempFolder()
        let files = try SessionFolder(in: parent.path)
        XCTAssertTrue(files.path.hasPrefix(parent.path + "/session-"))
        XCTAssertEqual(try mode(files.path), 0o700)
        let config = try files.write("ssh_config", Array("Host x\n".utf8))
        XCTAssertEqual(config, files.path + "/ssh_config")
        XCTAssertEqual(try mode(config), 0o600)
        XCTAssertEqual(files.read(config), Array("Host x\n".utf8))
        XCTAssertNil(files.read(config, limit: 4), "a file over the limit is not read")
        XCTAssertNil(files.read(files.path + "/missing"))

        // An existing name is never written over: the refusal names the file.
        XCTAssertThrowsError(try files.write("ssh_config", [1])) { error in
            guard case .fileNotCreated(let path, _)? = error as? SSHSessionRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(path, config)
        }
        XCTAssertEqual(files.read(config), Array("Host x\n".utf8), "the first file is untouched")

        // What ssh leaves beside the session's files (a rotation's known_hosts.old) goes too.
        XCTAssertTrue(FileManager.default.createFile(atPath: files.path + "/hop1-known_hosts.old", contents: Data("x".utf8)))
        files.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), [])
    }

    func testAFolderThatCannotBeMadeIsARefusalNamingItsParent() throws {
        let parent = try TempFolder()
        let missing = parent.file("not/there")
        XCTAssertThrowsError(try SessionFolder(in: missing)) { error in
            guard case .sessionFolderNotCreated(let named, let reason)? = error as? SSHSessionRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(named, missing)
            XCTAssertFalse(reason.isEmpty)
        }
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
