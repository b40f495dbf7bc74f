// Replacing a secret: a new item is written next to the old one, then the old one is
// deleted, so no Secret Service is ever asked to change an item. KeePassXC trusts a process
// only with the items it created and asks the user ("Access Request") about any other, even
// with ConfirmAccessItem=false; every hostbook run is a new process. So the writes here run
// in processes of their own (vault-probe), as separate hostbook runs do, each with a short
// deadline: a dialog would hold the call to it, and the call would fail (timed out).
import Foundation
import SecureMemory
@testable import Vault
import XCTest

final class VaultReplaceTests: XCTestCase {
    let database = "test-" + UUID().uuidString
    var client: VaultClient!
    /// Each probe call gets this deadline (ms): a call that waited for a dialog fails with
    /// timedOut instead of succeeding.
    let deadline = 2_500

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            XCTFail("no D-Bus session: run the tests with scripts/test (or scripts/with-keyring swift test)")
            throw XCTSkip("no session bus")
        }
        client = VaultClient(databaseID: database, timeoutMilliseconds: deadline)
    }

    override func tearDownWithError() throws {
        if let client {
            for item in (try? client.allItems()) ?? [] { _ = try? client.delete(item) }
        }
    }

    func id(_ kind: VaultItemKind = .password) -> VaultItemID { VaultItemID(kind: kind, owner: UUID().uuidString.lowercased()) }
    func bytes(_ secret: SecretBytes?) -> [UInt8]? { secret?.withUnsafeBytes { Array($0) } }
    func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() + "\n" }

    /// One probe call in a new process, which must succeed inside the short deadline.
    @discardableResult
    func probe(_ arguments: [String], stdin: String = "") throws -> String {
        let result = try VaultProbe.run(arguments, database: database, timeoutMilliseconds: deadline, stdin: Data(stdin.utf8))
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr) (a timeout: did the service show a dialog?)")
        return result.stdout
    }

    func testAnotherProcessReplacesReadsAndDeletesWithoutADialog() throws {
        for kind in VaultItemKind.allCases {
            let item = id(kind)
            let owner = [kind.rawValue, item.owner]
            XCTAssertEqual(try probe(["store"] + owner, stdin: "first"), "stored\n")
            XCTAssertEqual(try probe(["store"] + owner, stdin: "second"), "stored\n")    // a stranger to the first item
            XCTAssertEqual(try probe(["lookup"] + owner), hex("second"))
            XCTAssertEqual(try probe(["items"]), "\(kind.rawValue) \(item.owner)\n", "the old item must be gone")
            XCTAssertEqual(try probe(["store"] + owner, stdin: "third"), "stored\n")
            XCTAssertEqual(bytes(try client.lookup(item)), Array("third".utf8))
            XCTAssertEqual(try probe(["delete"] + owner), "deleted\n")
            XCTAssertEqual(try probe(["lookup"] + owner), "none\n")
            XCTAssertEqual(try probe(["items"]), "")
        }
    }

    func testAStagedSecretIsReadButTheOldOneStaysUntilTheCommit() throws {
        let item = id()
        try client.store(SecretBytes(copying: Array("old".utf8)), for: item, label: "hostbook test")
        let staged = try client.stage(SecretBytes(copying: Array("new".utf8)), for: item, label: "hostbook test")
        // Two items now; the newest is the secret, and the id is listed once (doctor counts ids).
        XCTAssertEqual(try count(item), 2)
        XCTAssertEqual(bytes(try client.lookup(item)), Array("new".utf8))
        XCTAssertEqual(try probe(["lookup", "password", item.owner]), hex("new"))
        XCTAssertEqual(try client.allItems(), [item])
        try client.commit(staged)
        XCTAssertEqual(try count(item), 1)
        XCTAssertEqual(bytes(try client.lookup(item)), Array("new".utf8))
    }

    func testADiscardedSecretLeavesTheOldOneAsItWas() throws {
        let item = id()
        try probe(["store", "password", item.owner], stdin: "old")   // written by another process
        let staged = try client.stage(SecretBytes(copying: Array("new".utf8)), for: item, label: "hostbook test")
        try client.discard(staged)
        XCTAssertEqual(try count(item), 1)
        XCTAssertEqual(try probe(["lookup", "password", item.owner]), hex("old"))
    }

    func testAnItemWithoutAGenerationCountsAsTheOldest() throws {
        // Written by secret-tool (or a hostbook before generations): no `generation` attribute.
        let item = id()
        try secretTool(item, "legacy")
        try client.store(SecretBytes(copying: Array("new".utf8)), for: item, label: "hostbook test")
        XCTAssertEqual(try count(item), 1, "the store deletes the older item")
        XCTAssertEqual(bytes(try client.lookup(item)), Array("new".utf8))
    }

    /// The number of items for `item`, every generation, as secret-tool sees them.
    func count(_ item: VaultItemID) throws -> Int {
        let (status, output) = try run(["secret-tool", "search", "--all", "db", database, "kind", item.kind.rawValue,
                                        "owner", item.owner], stdin: nil)
        XCTAssertEqual(status, 0)
        return output.split(separator: "\n").filter { $0.hasPrefix("[") }.count
    }

    /// Stores `secret` as version-1 payload with secret-tool (0x01 is not typeable, so via printf).
    func secretTool(_ item: VaultItemID, _ secret: String) throws {
        let (status, _) = try run(["sh", "-c", "printf '\\001%s' \"$1\" | secret-tool store --label legacy xdg:schema \(VaultClient.schemaName) "
                                   + "db \(database) kind \(item.kind.rawValue) owner \(item.owner)", "sh", secret], stdin: nil)
        XCTAssertEqual(status, 0)
    }

    func run(_ arguments: [String], stdin: Data?) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
