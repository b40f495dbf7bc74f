// A JSON object written in pieces, for reports whose arrays can hold 100,000 entries: the
// text is exactly what `JSONValue.rendered()` gives for the whole object, but no more than
// about 64 KiB of it is held at a time. Used by the import reports (Tailscale, ssh_config).

public struct StreamedJSONObject {
    private var out = "{\n"
    private var first = true
    private let write: (String) -> Void

    public init(write: @escaping (String) -> Void) { self.write = write }

    private mutating func key(_ k: String) {
        out += first ? "" : ",\n"
        first = false
        out += "  "
        JSONValue.escape(k, into: &out)
        out += ": "
    }

    /// One member with a small value.
    public mutating func field(_ name: String, _ value: JSONValue) {
        key(name)
        out += value.rendered()
    }

    /// One member whose value is an array, each element rendered and written as it comes.
    public mutating func array<T>(_ name: String, _ items: [T], _ element: (T) -> JSONValue) {
        key(name)
        guard !items.isEmpty else { out += "[]"; return }
        out += "[\n"
        for (i, item) in items.enumerated() {
            out += "    " + element(item).rendered().split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    ")
            out += i == items.count - 1 ? "\n" : ",\n"
            if out.utf8.count >= 1 << 16 { write(out); out = "" }
        }
        out += "  ]"
    }

    /// Closes the object and writes what is left.
    public mutating func finish() {
        out += first ? "}\n" : "\n}\n"
        write(out)
    }
}
