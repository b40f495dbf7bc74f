// Shared helpers for the Tailscale importer tests: fixture paths (ours in testdata/tailscale,
// the project's samples in ../shared/testdata/tailscale) and a fresh database per test.
import Foundation
@testable import HostStore
import ImportFormats
import XCTest

enum TailscaleFixtures {
    /// The package root: this file is Tests/HostStoreTests/<file>.swift.
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
        try TailscaleImporter.readDocument(MemorySource(try bytes(url)))
    }
}

/// A new database file in its own temporary folder, removed afterwards.
final class TemporaryDatabase {
    let folder: URL
    let database: HostDatabase
    var connection: SQLiteConnection { database.connection }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-ts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try HostDatabase.open(path: folder.appendingPathComponent("hostbook.db").path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func count(_ sql: String, _ values: [SQLValue] = []) throws -> Int64 {
        try connection.query(sql, values).first?.int(0) ?? -1
    }

    func strings(_ sql: String, _ values: [SQLValue] = []) throws -> [String] {
        try connection.query(sql, values).map { $0.text(0) ?? "NULL" }
    }

    /// Imports every device of `document` with `options` (the `--all` selection).
    @discardableResult
    func importAll(_ document: TailscaleDocument, _ options: TailscaleImportOptions = TailscaleImportOptions()) throws -> TailscaleImportReport {
        var nodes = document.nodes
        return try TailscaleImporter(connection: connection).run(format: document.format, tailnet: document.tailnet, nodes: &nodes, options: options)
    }
}
