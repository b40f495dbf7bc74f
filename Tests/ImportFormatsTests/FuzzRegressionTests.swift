// Replays fuzz/crashers/<target>/ (crashers the fuzzers found, plus hand-written tricky
// inputs named handwritten-*) and the seeds in fuzz/corpus/<target>/ for ImportFormats' fuzz
// targets (json-stream, punycode, bundle-text), through the bodies those targets run (FuzzEntry,
// Sources/ImportFormats/Fuzzing). Each input must only not crash.
import Foundation
import XCTest
import TestSupport
@testable import ImportFormats

final class ImportFormatsFuzzRegressionTests: XCTestCase {
    func testEveryCrasherAndSeedIsReplayedWithoutCrashing() throws {
        try FuzzReplay.replayCrashersAndCorpus(of: FuzzEntry.targets)
    }
}
