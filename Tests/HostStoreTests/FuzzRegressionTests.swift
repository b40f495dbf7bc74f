// Replays fuzz/crashers/<target>/ (crashers the fuzzers found, plus hand-written tricky
// inputs named handwritten-*) and the seeds in fuzz/corpus/<target>/ for the HostStore fuzz
// targets, through the bodies those targets run (FuzzEntry, Sources/HostStore/Fuzzing), with
// TestSupport's FuzzReplay.
// Each input must only not crash. The KeyFormats targets are replayed by KeyFormatsTests.
import Foundation
import XCTest
import TestSupport
@testable import HostStore

final class FuzzRegressionTests: XCTestCase {
    func testEveryCrasherAndSeedIsReplayedWithoutCrashing() throws {
        try FuzzReplay.replayCrashersAndCorpus(of: FuzzEntry.targets)
    }

    /// The known_hosts target really imports: a seed's entries reach the scratch store and
    /// are found by a check (so the replay above exercised the import, not an early error).
    func testKnownHostsFileTargetImportsIntoItsScratchStore() throws {
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGGwpaLyJeEMImKUjjXIlBYPSwGzPSoTXxE8denuMbxB"
        let folder = try TempFolder()
        let database = try HostDatabase.open(path: folder.file("hostbook.db"))
        let store = KnownHostsStore(database: database)
        let report = try store.importKnownHosts(Array("host.example,[host.example]:2222 \(key)\n@revoked x \(key)\n|1|bad|hash \(key)\n".utf8))
        XCTAssertEqual(report.imported, 3)
        XCTAssertEqual(report.skipped.map(\.line), [3])
        FuzzEntry.knownHostsFile(Array("host.example \(key)\n".utf8))
    }
}
