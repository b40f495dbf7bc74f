// Store, look up, replace and delete against the real Secret Service of the test run:
// GNOME Keyring (scripts/with-keyring) and, in a second run, KeePassXC (scripts/with-keepassxc). Each test uses a database id
// of its own, so test processes running in parallel never see each other's items.
import Foundation
import SecureMemory
@testable import Vault
import XCTest

final class VaultRoundTripTests: XCTestCase {
    var client: VaultClient!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            XCTFail("no D-Bus session: run the tests with scripts/test (or scripts/with-keyring swift test)")
            throw XCTSkip("no session bus")
        }
        client = VaultClient(databaseID: "test-" + UUID().uuidString, timeoutMilliseconds: 10_000)
    }

    override func tearDownWithError() throws {
        if let client {
            for item in (try? client.allItems()) ?? [] { _ = try? client.delete(item) }
        }
    }

    func id(_ kind: VaultItemKind = .password) -> VaultItemID { VaultItemID(kind: kind, owner: UUID().uuidString.lowercased()) }
    func bytes(_ secret: SecretBytes?) -> [UInt8]? { secret?.withUnsafeBytes { Array($0) } }

    func testStatusIsOKInTheTestKeyring() {
        let health = VaultClient.health()
        let backend = TestBackend.current
        XCTAssertEqual(health.status, .ok, health.error?.text ?? "")
        XCTAssertEqual(health.service, backend.service)
        XCTAssertEqual(health.collection, backend.collection.name)
        XCTAssertEqual(health.label, backend.collection.label)
        XCTAssertEqual(VaultClient.status(), .ok)
    }

    func testTextAndBinarySecretsRoundTrip() throws {
        let cases: [(VaultItemKind, [UInt8])] = [
            (.password, Array("correct horse battery staple ✓".utf8)),
            (.password, []),
            (.privateKey, Array(0...255)),                       // every byte value, NUL included
            (.privateKey, Array((0...255).reversed()) + [0, 0]),
            (.privateKey, (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
        ]
        for (kind, secret) in cases {
            let item = id(kind)
            try client.store(SecretBytes(copying: secret), for: item, label: "hostbook test \(kind)")
            XCTAssertEqual(bytes(try client.lookup(item)), secret, "\(kind), \(secret.count) bytes")
        }
    }

    func testStoreReplacesTheSecret() throws {
        let item = id()
        try client.store(SecretBytes(copying: Array("first".utf8)), for: item, label: "hostbook test")
        try client.store(SecretBytes(copying: Array("second".utf8)), for: item, label: "hostbook test")
        XCTAssertEqual(bytes(try client.lookup(item)), Array("second".utf8))
        XCTAssertEqual(try client.allItems(), [item])
        // Every generation of the item, as another client sees them: replacing leaves one.
        let search = Process()
        search.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        search.arguments = ["secret-tool", "search", "--all", "db", client.databaseID, "owner", item.owner]
        let output = Pipe()
        search.standardOutput = output
        search.standardError = output
        try search.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        search.waitUntilExit()
        XCTAssertEqual(text.split(separator: "\n").filter { $0.hasPrefix("[") }.count, 1, "replacing must not leave a second item")
    }

    func testDeleteRemovesTheItemAndSaysWhetherThereWasOne() throws {
        let item = id(.privateKey)
        try client.store(SecretBytes(copying: [1, 2, 3]), for: item, label: "hostbook test")
        XCTAssertTrue(try client.delete(item))
        XCTAssertNil(try client.lookup(item))
        XCTAssertFalse(try client.delete(item))
    }

    func testLookupOfAMissingItemIsNil() throws {
        XCTAssertNil(try client.lookup(id()))
        XCTAssertNil(try client.lookup(id(.privateKey)))
    }

    func testItemsAreScopedByDatabaseKindAndOwner() throws {
        let owner = UUID().uuidString
        let password = VaultItemID(kind: .password, owner: owner)
        let key = VaultItemID(kind: .privateKey, owner: owner)
        try client.store(SecretBytes(copying: Array("pw".utf8)), for: password, label: "hostbook test")
        try client.store(SecretBytes(copying: [0x6B]), for: key, label: "hostbook test")
        XCTAssertEqual(bytes(try client.lookup(password)), Array("pw".utf8))
        XCTAssertEqual(bytes(try client.lookup(key)), [0x6B])
        XCTAssertEqual(Set(try client.allItems()), [password, key])

        let otherDatabase = VaultClient(databaseID: client.databaseID + "-other")
        XCTAssertNil(try otherDatabase.lookup(password))
        XCTAssertEqual(try otherDatabase.allItems(), [])
        XCTAssertFalse(try otherDatabase.delete(password))
        XCTAssertEqual(bytes(try client.lookup(password)), Array("pw".utf8))
    }

    func testCallsFromManyThreadsAtOnce() throws {
        let items = (0..<8).map { _ in id(.privateKey) }
        let failures = FailureList()
        let client: VaultClient = self.client
        @Sendable func bytes(_ secret: SecretBytes?) -> [UInt8]? { secret?.withUnsafeBytes { Array($0) } }
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            do {
                let secret = (0..<64).map { UInt8(truncatingIfNeeded: $0 + i) }
                try client.store(SecretBytes(copying: secret), for: items[i], label: "hostbook test")
                if bytes(try client.lookup(items[i])) != secret { failures.add("item \(i): wrong secret") }
                if try !client.delete(items[i]) { failures.add("item \(i): not deleted") }
            } catch {
                failures.add("item \(i): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
    }

    func testAnUnknownPayloadVersionIsAClearError() throws {
        let item = id()
        try client.storePayload(SecretBytes(copying: [0x7F, 0x41, 0x42]), for: item, label: "hostbook test")
        XCTAssertThrowsError(try client.lookup(item)) { error in
            let vaultError = error as? VaultError
            XCTAssertEqual(vaultError?.kind, .unknownPayloadVersion)
            XCTAssertEqual(vaultError?.text,
                           "the vault item for password \(item.owner) has payload version 127, which this hostbook cannot read")
        }
    }

    func testAnItemWrittenBySecretToolIsNotReadAsGarbage() throws {
        // Another program's item under our schema: "garbage" starts with 0x67, not a version we know.
        let item = id()
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tool.arguments = ["secret-tool", "store", "--label", "not hostbook", "xdg:schema", VaultClient.schemaName,
                          "db", client.databaseID, "kind", "password", "owner", item.owner]
        let input = Pipe()
        tool.standardInput = input
        try tool.run()
        input.fileHandleForWriting.write(Data("garbage".utf8))
        try input.fileHandleForWriting.close()
        tool.waitUntilExit()
        XCTAssertEqual(tool.terminationStatus, 0)
        XCTAssertThrowsError(try client.lookup(item)) { error in
            XCTAssertEqual((error as? VaultError)?.kind, .unknownPayloadVersion)
        }
        XCTAssertTrue(try client.delete(item))
    }

    func testAnEmptyPayloadIsAClearError() throws {
        let item = id()
        try client.storePayload(SecretBytes(count: 0), for: item, label: "hostbook test")
        XCTAssertThrowsError(try client.lookup(item)) { error in
            XCTAssertEqual((error as? VaultError)?.text, "the vault item for password \(item.owner) is empty")
        }
    }
}

/// Failures collected from several threads.
private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.lock(); list.append(failure); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
