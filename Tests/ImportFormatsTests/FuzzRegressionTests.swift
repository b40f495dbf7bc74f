// Replays fuzz/crashers/<target>/ (crashers the fuzzers found, plus hand-written tricky
// inputs named handwritten-*) and the seeds in fuzz/corpus/<target>/ for ImportFormats' fuzz
// targets (json-stream, punycode, bundle-text), through the bodies those targets run (FuzzEntry,
// Sources/ImportFormats/Fuzzing). Each input must only not crash.
import Foundation
import XCTest
@testable import ImportFormats

final class ImportFormatsFuzzRegressionTests: XCTestCase {
    func testEveryCrasherAndSeedIsReplayedWithoutCrashing() throws {
        let root = ImportFixtures.packageRoot.appendingPathComponent("fuzz")
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
}
