// Tailscale documents for the readers' and the importer's tests: ours in testdata/tailscale,
// the project's samples in ../shared/testdata/tailscale (a test skips when that is absent).
// Each test target reads them into a document its own way (extensions there).
import Foundation
import XCTest

public enum TailscaleFixtures {
    public static func own(_ name: String) -> URL { PackageRoot.file("testdata/tailscale/\(name)") }

    public static let sharedFolder = PackageRoot.sharedTestData("tailscale")

    /// A sample from ../shared/testdata/tailscale, or XCTSkip when that folder is absent.
    public static func shared(_ name: String) throws -> URL {
        let url = sharedFolder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("\(url.path) is not present")
        }
        return url
    }

    public static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }
}
