// A command's workspace opens the database at most once and creates nothing for a reader.
import Foundation
import HostStore
import TestSupport
import Workflows
import XCTest

final class WorkspaceTests: XCTestCase {
    func testAReaderOfNoDatabaseCreatesNothing() throws {
        let folder = try TempFolder()
        let workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("data/hostbook.db"))
        XCTAssertNil(try workspace.existingDatabase())
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("data")))
    }

    func testTheDatabaseIsOpenedOnceForTheWholeCommand() throws {
        let folder = try TempFolder()
        let workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("data/hostbook.db"))
        let written = try workspace.database()
        XCTAssertTrue(written === (try workspace.database()))
        XCTAssertTrue(written === (try workspace.existingDatabase()))
        XCTAssertFalse(written.isReadOnly)
    }

    func testAWriterAfterAReaderGetsAWritableHandleOnce() throws {
        let folder = try TempFolder()
        let path = folder.file("data/hostbook.db")
        _ = try HostDatabase.open(path: path)
        let workspace = Workspace(environment: ["HOME": folder.path], databasePath: path)
        let read = try XCTUnwrap(try workspace.existingDatabase())
        XCTAssertTrue(read.isReadOnly)
        let written = try workspace.database()
        XCTAssertFalse(written.isReadOnly)
        XCTAssertTrue(written === (try workspace.database()))
        XCTAssertTrue(written === (try workspace.existingDatabase()))
    }

    func testThePathComesFromTheEnvironmentWithoutDB() {
        XCTAssertEqual(Workspace(environment: ["HOSTBOOK_DB": "/x/h.db", "HOME": "/h"]).databasePath, "/x/h.db")
        XCTAssertEqual(Workspace(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]).databasePath, "/d/hostbook/hostbook.db")
        XCTAssertEqual(Workspace(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).databasePath, "/h/.local/share/hostbook/hostbook.db")
        XCTAssertEqual(Workspace(environment: ["HOME": "/h"], databasePath: "/given.db").databasePath, "/given.db")
    }
}
