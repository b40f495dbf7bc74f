// Replays fuzz/crashers/<target>/ (crashers the fuzzers found, plus hand-written tricky
// inputs named handwritten-*) and the seeds in fuzz/corpus/<target>/ for the HostStore fuzz
// targets, through the bodies those targets run (FuzzEntry, Sources/HostStore/Fuzzing).
// Each input must only not crash. The KeyFormats targets are replayed by KeyFormatsTests.
import Foundation
import XCTest
@testable import HostStore

final class FuzzRegressionTests: XCTestCase {
    func testEveryCrasherAndSeedIsReplayedWithoutCrashing() throws {
        let root = TailscaleFixtures.packageRoot.appendingPathComponent("fuzz")
        for target in FuzzEntry.targets {
            var handwritten = 0, replayed = 0
            for kind in ["crashers", "corpus"] {
                let folder = root.appendingPathComponent("\(kind)/\(target.name)")
                let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { !$0.hasPrefix(".") }
                for file in files {
                    target.run(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
                    replayed += 1
                    if kind == "crashers", file.hasPrefix("handwritten-") { handwritten += 1 }
                }
            }
            XCTAssertGreaterThanOrEqual(handwritten, 1, "fuzz/crashers/\(target.name) has no handwritten-* input")
            XCTAssertGreaterThanOrEqual(replayed, 3, "fuzz/corpus/\(target.name) has too few seeds")
        }
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
