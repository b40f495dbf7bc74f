// Schema.currentVersion for tests of the binary, which do not link HostStore: the last
// `Migration(version: N` of Sources/HostStore/Database/Schema.swift, so no test holds the
// number as a literal.
import Foundation
import XCTest

enum CurrentSchemaVersion {
    static func read() throws -> Int {
        let text = try String(contentsOfFile: PackageRootPath.path + "/Sources/HostStore/Database/Schema.swift", encoding: .utf8)
        let versions = text.components(separatedBy: "Migration(version: ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        return try XCTUnwrap(versions.max())
    }
}
