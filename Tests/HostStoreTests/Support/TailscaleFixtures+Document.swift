// A Tailscale fixture (paths: TestSupport's TailscaleFixtures) read as the importer reads it.
import Foundation
@testable import HostStore
import ImportFormats
import TestSupport

extension TailscaleFixtures {
    /// A document read as `hostbook import tailscale` reads it.
    static func document(_ url: URL) throws -> TailscaleDocument {
        try TailscaleImporter.readDocument(MemorySource(try bytes(url)))
    }
}
