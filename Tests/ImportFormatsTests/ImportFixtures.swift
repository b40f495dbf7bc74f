// Fixture paths for the readers' tests: ours in testdata/tailscale, the project's samples in
// ../shared/testdata/tailscale (skipped when absent).
import Foundation
@testable import ImportFormats
import XCTest

enum ImportFixtures {
    /// The package root: this file is Tests/ImportFormatsTests/<file>.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func own(_ name: String) -> URL { packageRoot.appendingPathComponent("testdata/tailscale/\(name)") }

    static let sharedFolder = packageRoot.appendingPathComponent("../shared/testdata/tailscale").standardizedFileURL

    /// A sample from ../shared/testdata/tailscale, or XCTSkip when that folder is absent.
    static func shared(_ name: String) throws -> URL {
        let url = sharedFolder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("\(url.path) is not present")
        }
        return url
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static func document(_ url: URL) throws -> TailscaleDocument {
        try TailscaleDocumentReader.read(MemorySource(try bytes(url)))
    }
}
