// JSON output with stable, ordered field names (a contract with scripts; docs/json.md).
// The text itself, escapes included, is written by JSONBytes alone.

enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// An unsigned 64-bit number (a certificate's serial).
    case unsigned(UInt64)
    case string(String)
    case array([JSONValue])
    /// Ordered: fields are printed in the order given.
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.rendered() == b.rendered() }

    static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    static func optional(_ n: Int?) -> JSONValue { n.map { .int($0) } ?? .null }
    static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }

    /// Pretty-printed with two-space indentation (written by JSONBytes, the one JSON writer).
    func rendered() -> String {
        var w = JSONBytes()
        w.write(self, indent: 0)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `s` as a JSON string, quotes included, appended to `out` (JSONBytes' escaping).
    static func escape(_ s: String, into out: inout String) {
        var w = JSONBytes(capacity: s.utf8.count + 16)
        w.string(s)
        out += String(decoding: w.bytes, as: UTF8.self)
    }
}
