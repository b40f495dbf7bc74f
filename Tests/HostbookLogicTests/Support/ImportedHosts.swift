// `import-ssh-config --json`'s report, its hosts by alias, for the tests of what an import
// took from a file.
import Foundation
import XCTest

/// The hosts of an `import-ssh-config --json` call that exited 0, by alias.
func importedHosts(_ r: InProcessCommand.Outcome, file: StaticString = #filePath, line: UInt = #line) throws -> [String: [String: Any]] {
    XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any], file: file, line: line)
    let hosts = object["hosts"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: hosts.map { ($0["alias"] as? String ?? "", $0) })
}
