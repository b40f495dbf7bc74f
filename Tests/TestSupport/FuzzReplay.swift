// Replays fuzz/crashers/<target>/ (crashers the fuzzers found, plus hand-written tricky
// inputs named handwritten-*) and the seeds in fuzz/corpus/<target>/ through the bodies the
// fuzz targets run (each module's FuzzEntry.targets). Each input must only not crash.
import Foundation
import XCTest

public enum FuzzReplay {
    /// Runs every crasher and seed of every target; each target must have at least one
    /// handwritten-* crasher and three inputs in all.
    public static func replayCrashersAndCorpus(of targets: [(name: String, run: @Sendable ([UInt8]) -> Void)],
                                               file: StaticString = #filePath, line: UInt = #line) throws {
        let root = PackageRoot.file("fuzz")
        for target in targets {
            var handwritten = 0, replayed = 0
            for kind in ["crashers", "corpus"] {
                let folder = root.appendingPathComponent("\(kind)/\(target.name)")
                let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { !$0.hasPrefix(".") }
                for name in files {
                    target.run(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
                    replayed += 1
                    if kind == "crashers", name.hasPrefix("handwritten-") { handwritten += 1 }
                }
            }
            XCTAssertGreaterThanOrEqual(handwritten, 1, "fuzz/crashers/\(target.name) has no handwritten-* input", file: file, line: line)
            XCTAssertGreaterThanOrEqual(replayed, 3, "fuzz/corpus/\(target.name) has too few seeds", file: file, line: line)
        }
    }
}
