// A fresh database per test, in its own temporary folder (TestSupport's TempFolder).
import Foundation
@testable import HostStore
import ImportFormats
import TestSupport

/// A new database file in its own temporary folder, removed afterwards.
final class TemporaryDatabase {
    let temporary: TempFolder
    let database: HostDatabase
    var connection: SQLiteConnection { database.connection }

    init() throws {
        temporary = try TempFolder()
        database = try HostDatabase.open(path: temporary.file("hostbook.db"))
    }

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
