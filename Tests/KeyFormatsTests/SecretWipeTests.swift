// Sodium.wipe(&array) zeroes the array's own storage, even when another array value shares
// it (copy-on-write would otherwise wipe a fresh copy and leave the bytes in place).
import XCTest
import SecureMemory

final class SecretWipeTests: XCTestCase {
    func testWipeZeroesSharedStorageInPlace() {
        var secret: [UInt8] = Array("correct horse battery staple".utf8)
        let alias = secret   // shares the storage: a mutable view of `secret` would copy it
        let before = secret.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        Sodium.wipe(&secret)
        XCTAssertEqual(secret.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }, before, "the storage was not replaced")
        XCTAssertEqual(secret, [UInt8](repeating: 0, count: 28))
        XCTAssertEqual(alias, [UInt8](repeating: 0, count: 28), "the shared storage itself was wiped")
    }

    func testWipeOfUniqueAndEmptyArrays() {
        var unique: [UInt8] = [1, 2, 3]
        Sodium.wipe(&unique)
        XCTAssertEqual(unique, [0, 0, 0])
        var empty: [UInt8] = []
        Sodium.wipe(&empty)
        XCTAssertEqual(empty, [])
    }

    func testProcessProtectionTurnsCoreDumpsOff() {
        XCTAssertTrue(ProcessProtection.disableCoreDumps())
        XCTAssertFalse(ProcessProtection.isDumpable)
        XCTAssertEqual(ProcessProtection.coreSizeLimit, 0)
    }
}
