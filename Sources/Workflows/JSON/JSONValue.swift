// JSON output with stable, ordered field names (a contract with scripts; docs/json.md).
// The text itself, escapes included, is written by JSONBytes alone. The program prints it
// (Invocation.printJSON); the workflows build the documents of their results (HostJSON,
// KnownHostsJSON, SnippetJSON, TailscaleImportJSON).

public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// An unsigned 64-bit number (a certificate's serial).
    case unsigned(UInt64)
    case string(String)
    case array([JSONValue])
    /// Ordered: fields are printed in the order given.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.rendered() == b.rendered() }

    public static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    public static func optional(_ n: Int?) -> JSONValue { n.map { .int($0) } ?? .null }
    public static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }

    /// Pretty-printed with two-space indentation (written by JSONBytes, the one JSON writer).
    public func rendered() -> String {
        var w = JSONBytes()
        write(into: &w, indent: 0)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The value at `indent` (two spaces a level), into `w`.
    public func write(into w: inout JSONBytes, indent: Int) {
        switch self {
        case .null: w.text("null")
        case .bool(let b): w.text(b ? "true" : "false")
        case .int(let n): w.text(String(n))
        case .unsigned(let n): w.text(String(n))
        case .string(let s): w.string(s)
        case .array(let items):
            if items.isEmpty { w.text("[]"); return }
            w.byte(UInt8(ascii: "["))
            w.byte(0x0A)
            for (i, item) in items.enumerated() {
                w.spaces(indent + 1)
                item.write(into: &w, indent: indent + 1)
                if i != items.count - 1 { w.byte(UInt8(ascii: ",")) }
                w.byte(0x0A)
            }
            w.spaces(indent)
            w.byte(UInt8(ascii: "]"))
        case .object(let fields):
            if fields.isEmpty { w.text("{}"); return }
            w.byte(UInt8(ascii: "{"))
            w.byte(0x0A)
            for (i, (k, v)) in fields.enumerated() {
                w.spaces(indent + 1)
                w.string(k)
                w.byte(UInt8(ascii: ":"))
                w.byte(UInt8(ascii: " "))
                v.write(into: &w, indent: indent + 1)
                if i != fields.count - 1 { w.byte(UInt8(ascii: ",")) }
                w.byte(0x0A)
            }
            w.spaces(indent)
            w.byte(UInt8(ascii: "}"))
        }
    }

    /// `s` as a JSON string, quotes included, appended to `out` (JSONBytes' escaping).
    public static func escape(_ s: String, into out: inout String) {
        var w = JSONBytes(capacity: s.utf8.count + 16)
        w.string(s)
        out += String(decoding: w.bytes, as: UTF8.self)
    }
}
