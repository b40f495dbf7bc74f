// The set-up the HostStore test classes share: every test gets a fresh database file,
// hostbook.db in its own temporary folder. XCTest keeps every test case object until the run
// ends, so tearDown closes the database and removes the folder at once.
import XCTest
@testable import HostStore
import TestSupport

class DatabaseTestCase: XCTestCase {
    /// This test's temporary folder; the database is `folder.file("hostbook.db")`.
    var folder: TempFolder!
    var db: HostDatabase!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try TempFolder()
        db = try HostDatabase.open(path: folder.file("hostbook.db"))
    }

    override func tearDown() {
        db = nil
        folder = nil
        super.tearDown()
    }
}
