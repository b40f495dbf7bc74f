// The known-hosts store tests' set-up: a DatabaseTestCase whose every test also gets a
// KnownHostsStore over its fresh database.
import XCTest
@testable import HostStore

class KnownHostsStoreTestCase: DatabaseTestCase {
    var store: KnownHostsStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = KnownHostsStore(database: db)
    }

    override func tearDown() {
        store = nil
        super.tearDown()
    }
}
