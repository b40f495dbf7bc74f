// docs/json.md ("JSON output") read as the contract of every `--json`: the `json-commands`
// block (command words → the type it prints) and one `json-object NAME` block per object
// (its fields in order, their types, nullable, present only sometimes).
import Foundation
import XCTest

public enum JSONDocumentContract {
    public indirect enum FieldType: Equatable {
        case string, integer, boolean, time
        case array(FieldType)
        case object(String)
    }

    public struct Field {
        public let name: String
        public let type: FieldType
        public let nullable: Bool
        /// Documented as "present only ..." (a host's `overrides`): absent otherwise.
        public var presentOnly = false
    }

    public struct Document {
        /// Command words → what it prints: nil for `-` (a file format of its own).
        public var commands: [String: FieldType?] = [:]
        public var objects: [String: [Field]] = [:]

        public init() {}
    }

    public static func parseType(_ s: String) -> FieldType {
        if s.hasPrefix("[") && s.hasSuffix("]") { return .array(parseType(String(s.dropFirst().dropLast()))) }
        switch s {
        case "string": return .string
        case "integer": return .integer
        case "boolean": return .boolean
        case "time": return .time
        default: return .object(s)
        }
    }

    /// Where the JSON output is documented (moved out of the README, issue 34).
    public static let pagePath = PackageRoot.path + "/docs/json.md"

    public static func readDocument() throws -> Document {
        let page = try String(contentsOfFile: Self.pagePath, encoding: .utf8)
        let start = try XCTUnwrap(page.range(of: "<!-- section: json -->"), "docs/json.md has no '<!-- section: json -->' line")
        let rest = page[start.upperBound...]
        let section = rest[..<(rest.range(of: "<!-- section:")?.lowerBound ?? rest.endIndex)]
        var doc = Document()
        var block: String?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```text json-") { block = String(line.dropFirst("```text ".count)); continue }
            if line.hasPrefix("```") { block = nil; continue }
            guard let block, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let words = line.split(separator: " ").map(String.init)
            if block == "json-commands" {
                let type = words.last!
                doc.commands[words.dropLast().joined(separator: " ")] = type == "-" ? .some(nil) : parseType(type)
            } else if block.hasPrefix("json-object ") {
                let name = String(block.dropFirst("json-object ".count))
                let nullable = words.count >= 4 && words[2] == "|" && words[3] == "null"
                doc.objects[name, default: []].append(Field(name: words[0], type: parseType(words[1]), nullable: nullable,
                                                            presentOnly: line.contains("present only")))
            }
        }
        return doc
    }
}
