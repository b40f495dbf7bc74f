// A Tailscale fixture (paths: TestSupport's TailscaleFixtures) read by the document reader.
import Foundation
@testable import ImportFormats
import TestSupport

extension TailscaleFixtures {
    static func document(_ url: URL) throws -> TailscaleDocument {
        try TailscaleDocumentReader.read(MemorySource(try bytes(url)))
    }
}
