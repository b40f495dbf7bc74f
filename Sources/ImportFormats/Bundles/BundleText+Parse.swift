// Reading a bundle's text: exactly the canonical form `render` writes (BundleText.swift),
// one line at a time, in bounded work (size, lines, line length and entries are capped;
// nothing recurses). Every refusal names its line.
import KeyFormats

extension BundleText {
    /// Reads a bundle's text. Refuses, naming the line, anything that is not the canonical
    /// form: an unknown format version or field, a duplicate or unsorted host, snippet, tag,
    /// alias or key line, a field out of order, a control character, a bad escape, a
    /// known_hosts line that does not parse, input over the bounds.
    public static func parse(_ bytes: [UInt8]) throws -> BundleDocument {
        guard bytes.count <= maximumBytes else {
            throw BundleTextError(line: 0, "the bundle is \(bytes.count) bytes long; at most \(maximumBytes) bytes are read")
        }
        var reader = BundleTextReader(bytes: bytes)
        return try reader.document()
    }
}

/// One line of a bundle, split into its parts.
struct BundleTextLine {
    enum Value {
        case text(String)
        case number(UInt64, digits: Int)
    }

    let number: Int
    /// True for a field line (two spaces, then the field).
    let indented: Bool
    let keyword: String
    let value: Value
}

struct BundleTextReader {
    let bytes: [UInt8]
    private var position = 0
    private var lineNumber = 0
    /// A line read ahead and not yet used.
    private var pending: (number: Int, bytes: ArraySlice<UInt8>)?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func fail(_ line: Int, _ message: String) -> BundleTextError {
        BundleTextError(line: line, message)
    }

    /// `s` escaped, at most 64 characters of it, for a message.
    static func shown(_ s: String) -> String {
        let e = BundleText.escaped(s)
        return e.count > 64 ? String(e.prefix(64)) + "…" : e
    }

    // MARK: Lines

    /// The next physical line without its newline, or nil at the end of the text.
    private mutating func rawLine() throws -> (number: Int, bytes: ArraySlice<UInt8>)? {
        if let p = pending {
            pending = nil
            return p
        }
        guard position < bytes.count else { return nil }
        lineNumber += 1
        guard lineNumber <= BundleText.maximumLines else {
            throw fail(lineNumber, "the bundle has more than \(BundleText.maximumLines) lines")
        }
        let limit = min(bytes.count, position + BundleText.maximumLineBytes + 1)
        guard let end = bytes[position..<limit].firstIndex(of: 0x0A) else {
            if limit == bytes.count {
                throw fail(lineNumber, "the last line does not end with a newline")
            }
            throw fail(lineNumber, "the line is longer than \(BundleText.maximumLineBytes) bytes")
        }
        let line = bytes[position..<end]
        position = end + 1
        if line.last == 0x0D { throw controlCharacter(lineNumber, 0x0D) }
        return (lineNumber, line)
    }

    private mutating func unread(_ line: (number: Int, bytes: ArraySlice<UInt8>)) {
        pending = line
    }

    /// Splits a non-blank line into indent, keyword and value.
    private func split(_ raw: (number: Int, bytes: ArraySlice<UInt8>)) throws -> BundleTextLine {
        let n = raw.number
        var b = raw.bytes
        var indented = false
        if b.starts(with: [0x20, 0x20]) {
            indented = true
            b = b.dropFirst(2)
        }
        guard let first = b.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else {
            if let bad = b.first(where: { $0 < 0x20 || $0 == 0x7F }) {
                throw controlCharacter(n, bad)
            }
            throw fail(n, "expected a field name in lower case\(indented ? " after two spaces" : " at the start of the line")")
        }
        let keywordEnd = b.firstIndex(where: { !(($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "-")) }) ?? b.endIndex
        let keyword = String(decoding: b[b.startIndex..<keywordEnd], as: UTF8.self)
        guard keywordEnd < b.endIndex, b[keywordEnd] == 0x20 else {
            if keywordEnd < b.endIndex, b[keywordEnd] < 0x20 || b[keywordEnd] == 0x7F { throw controlCharacter(n, b[keywordEnd]) }
            throw fail(n, keywordEnd == b.endIndex ? "'\(keyword)' has no value" : "expected one space after '\(keyword)'")
        }
        let rest = b[(keywordEnd + 1)...]
        return BundleTextLine(number: n, indented: indented, keyword: keyword, value: try value(rest, line: n))
    }

    private func controlCharacter(_ line: Int, _ byte: UInt8) -> BundleTextError {
        if byte == 0x0D {
            return fail(line, "a carriage return (U+000D): bundle lines end with a newline only")
        }
        return fail(line, "a control character (U+\(hex4(UInt32(byte)))): a bundle cannot hold control characters")
    }

    private func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    /// A quoted string (escapes `\"` and `\\` only) or a decimal number.
    private func value(_ b: ArraySlice<UInt8>, line n: Int) throws -> BundleTextLine.Value {
        guard let first = b.first else { throw fail(n, "expected a value after the space") }
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            guard b.count <= 20, b.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw fail(n, "expected a whole number of at most 20 digits")
            }
            guard first != UInt8(ascii: "0") || b.count == 1 else { throw fail(n, "a number is written without leading zeros") }
            var v: UInt64 = 0
            for d in b {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(UInt64(d - UInt8(ascii: "0")))
                guard !o1, !o2 else { throw fail(n, "the number is larger than \(UInt64.max)") }
                v = s
            }
            return .number(v, digits: b.count)
        }
        guard first == UInt8(ascii: "\"") else {
            if first < 0x20 || first == 0x7F { throw controlCharacter(n, first) }
            throw fail(n, "expected a value in double quotes or a number")
        }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = b.index(after: b.startIndex)
        while i < b.endIndex {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                guard b.index(after: i) == b.endIndex else { throw fail(n, "text after the closing quote") }
                guard let s = String(validating: out, as: UTF8.self) else { throw fail(n, "the value is not valid UTF-8") }
                if let c1 = s.unicodeScalars.first(where: { (0x80...0x9F).contains($0.value) }) {
                    throw fail(n, "a control character (U+\(hex4(c1.value))): a bundle cannot hold control characters")
                }
                return .text(s)
            }
            if c == UInt8(ascii: "\\") {
                let next = b.index(after: i)
                guard next < b.endIndex, b[next] == UInt8(ascii: "\"") || b[next] == UInt8(ascii: "\\") else {
                    let shown = next < b.endIndex && b[next] >= 0x20 && b[next] < 0x7F ? "\\" + String(UnicodeScalar(b[next])) : "\\"
                    throw fail(n, "unknown escape '\(shown)': a value escapes only \\\" and \\\\")
                }
                out.append(b[next])
                i = b.index(after: next)
                continue
            }
            if c < 0x20 || c == 0x7F { throw controlCharacter(n, c) }
            out.append(c)
            i = b.index(after: i)
        }
        throw fail(n, "the value has no closing quote")
    }

    // MARK: The document

    private mutating func expectField(_ keyword: String) throws -> BundleTextLine {
        guard let raw = try rawLine() else { throw fail(lineNumber + 1, "the bundle ends before its '\(keyword)' line") }
        let l = try split(raw)
        guard !l.indented, l.keyword == keyword else { throw fail(l.number, "expected '\(keyword)', found '\(l.keyword)'") }
        return l
    }

    mutating func document() throws -> BundleDocument {
        guard let first = try rawLine() else { throw fail(0, "the bundle is empty") }
        let headerBytes = Array(BundleText.header.utf8)
        if !first.bytes.elementsEqual(headerBytes) {
            let prefix = Array("hostbook-bundle ".utf8)
            if first.bytes.starts(with: prefix) {
                let version = String(decoding: first.bytes.dropFirst(prefix.count).prefix(32), as: UTF8.self)
                throw fail(1, "unknown bundle format version '\(Self.shown(version))' (this hostbook reads '\(BundleText.header)')")
            }
            throw fail(1, "not a hostbook bundle: the first line must be '\(BundleText.header)'")
        }
        let nameLine = try expectField("name")
        guard case .text(let name) = nameLine.value else { throw fail(nameLine.number, "the bundle's name must be in double quotes") }
        if let problem = BundleName.problem(name) { throw fail(nameLine.number, problem) }
        let serialLine = try expectField("serial")
        guard case .number(let serial, _) = serialLine.value else { throw fail(serialLine.number, "the serial must be a whole number") }

        var document = BundleDocument(name: name, serial: serial)
        var hostLines: [String: Int] = [:]
        var snippetLines: [String: Int] = [:]
        /// 0: hosts may come; 1: snippets; 2: host-key lines; 3: certificate lines; 4: krl.
        var section = 0
        while let blank = try rawLine() {
            guard blank.bytes.isEmpty else {
                let l = try split(blank)
                throw fail(blank.number, l.indented ? "unknown field '\(Self.shown(l.keyword))' here" : "expected a blank line before '\(Self.shown(l.keyword))'")
            }
            guard let raw = try rawLine() else { throw fail(blank.number, "a blank line at the end of the bundle") }
            if raw.bytes.isEmpty { throw fail(raw.number, "two blank lines in a row") }
            let head = try split(raw)
            guard !head.indented else { throw fail(head.number, "a field ('\(Self.shown(head.keyword))') outside a host or snippet") }
            switch head.keyword {
            case "host":
                guard section == 0 else { throw fail(head.number, "hosts come before snippets and host keys") }
                guard document.hosts.count < BundleText.maximumEntries else { throw fail(head.number, "more than \(BundleText.maximumEntries) hosts") }
                let host = try readHost(head)
                try checkOrder(host.name, after: document.hosts.last?.name, seen: &hostLines, what: "host", line: head.number)
                document.hosts.append(host)
            case "snippet":
                guard section <= 1 else { throw fail(head.number, "snippets come before host keys") }
                section = 1
                guard document.snippets.count < BundleText.maximumEntries else { throw fail(head.number, "more than \(BundleText.maximumEntries) snippets") }
                let snippet = try readSnippet(head)
                try checkOrder(snippet.name, after: document.snippets.last?.name, seen: &snippetLines, what: "snippet", line: head.number)
                document.snippets.append(snippet)
            case "host-key":
                guard section <= 1 else {
                    throw fail(head.number, section == 2 ? "a blank line among the host keys" : "host keys come before certificates and the krl")
                }
                section = 2
                document.hostKeys = try readHostKeys(head)
            case "certificate":
                guard section <= 2 else {
                    throw fail(head.number, section == 3 ? "a blank line among the certificates" : "certificates come before the krl")
                }
                section = 3
                document.certificates = try readCertificates(head)
            case "krl":
                guard section <= 3 else { throw fail(head.number, "a second krl line") }
                section = 4
                document.revocationList = try readRevocationList(head)
            default:
                throw fail(head.number, "unknown entry '\(Self.shown(head.keyword))' (a bundle holds host, snippet, host-key, certificate and krl entries)")
            }
        }
        return document
    }

    /// Names are sorted by their bytes and unique regardless of ASCII case.
    private func checkOrder(_ name: String, after previous: String?, seen: inout [String: Int], what: String, line: Int) throws {
        let key = BundleText.folded(name)
        if let earlier = seen[key] {
            throw fail(line, "a second \(what) named '\(Self.shown(name))' (the first is on line \(earlier); names are unique regardless of case)")
        }
        if let previous, !BundleText.precedes(previous, name) {
            throw fail(line, "\(what) '\(Self.shown(name))' is out of order: \(what)s are sorted by name ('\(Self.shown(previous))' comes before it)")
        }
        seen[key] = line
    }

    private func text(_ l: BundleTextLine) throws -> String {
        guard case .text(let s) = l.value else { throw fail(l.number, "the value of '\(l.keyword)' must be in double quotes") }
        return s
    }

    /// The field lines after a host or snippet line, up to the next blank line or the end.
    private mutating func fields(of owner: String, allowed: [String]) throws -> [BundleTextLine] {
        var out: [BundleTextLine] = []
        while let raw = try rawLine() {
            if raw.bytes.isEmpty {
                unread(raw)
                break
            }
            let l = try split(raw)
            guard l.indented else { throw fail(l.number, "expected a blank line before '\(Self.shown(l.keyword))'") }
            guard let rank = allowed.firstIndex(of: l.keyword) else {
                throw fail(l.number, "unknown \(owner) field '\(Self.shown(l.keyword))' (a \(owner) has \(allowed.joined(separator: ", ")))")
            }
            if let last = out.last, let lastRank = allowed.firstIndex(of: last.keyword) {
                if rank == lastRank, l.keyword != "tag", l.keyword != "alias" {
                    throw fail(l.number, "a second '\(l.keyword)' field")
                }
                if rank < lastRank {
                    throw fail(l.number, "'\(l.keyword)' is out of order: a \(owner)'s fields are written in the order \(allowed.joined(separator: ", "))")
                }
            }
            out.append(l)
        }
        return out
    }

    private mutating func readHost(_ head: BundleTextLine) throws -> BundleHost {
        let name = try text(head)
        let fields = try fields(of: "host", allowed: BundleText.hostFields)
        var host = BundleHost(name: name, hostname: "", port: 0)
        var hasHostname = false, hasPort = false
        var aliasesSeen: [String: Int] = [:]
        for f in fields {
            switch f.keyword {
            case "hostname": host.hostname = try text(f); hasHostname = true
            case "port":
                guard case .number(let p, let digits) = f.value, digits <= 5 else {
                    throw fail(f.number, "the port must be a whole number of at most 5 digits")
                }
                host.port = Int(p)
                hasPort = true
            case "user": host.user = try text(f)
            case "tag":
                let tag = try text(f)
                if let last = host.tags.last, !BundleText.precedes(last, tag) {
                    throw fail(f.number, last == tag ? "a second tag '\(Self.shown(tag))'" : "tag '\(Self.shown(tag))' is out of order: tags are sorted")
                }
                host.tags.append(tag)
            case "alias":
                let alias = try text(f)
                var seen = aliasesSeen
                try checkOrder(alias, after: host.aliases.last, seen: &seen, what: "alias", line: f.number)
                aliasesSeen = seen
                host.aliases.append(alias)
            case "jump": host.jump = try text(f)
            case "note": host.note = try text(f)
            default: host.key = try text(f)
            }
        }
        guard hasHostname else { throw fail(head.number, "host '\(Self.shown(name))' has no hostname") }
        guard hasPort else { throw fail(head.number, "host '\(Self.shown(name))' has no port") }
        return host
    }

    private mutating func readSnippet(_ head: BundleTextLine) throws -> BundleSnippet {
        let name = try text(head)
        var snippet = BundleSnippet(name: name, command: "")
        var hasCommand = false
        for f in try fields(of: "snippet", allowed: BundleText.snippetFields) {
            if f.keyword == "command" {
                snippet.command = try text(f)
                hasCommand = true
            } else {
                snippet.description = try text(f)
            }
        }
        guard hasCommand else { throw fail(head.number, "snippet '\(Self.shown(name))' has no command") }
        return snippet
    }

    /// The certificate lines from `first` to a blank line or the end: each a user
    /// certificate written as `BundleText.line(of:)` writes it, sorted, once each.
    private mutating func readCertificates(_ first: BundleTextLine) throws -> [String] {
        try readSortedLines(first, keyword: "certificate", copy: "certificate") { line in
            do { _ = try BundleText.certificate(line) } catch let e as KeyFormatError {
                return "not a usable certificate: \(e.reason)"
            }
            return nil
        }
    }

    /// The krl line: the last entry of the text.
    private mutating func readRevocationList(_ l: BundleTextLine) throws -> String {
        let value = try text(l)
        do { _ = try BundleText.revocationList(value) } catch let e as KeyFormatError {
            throw fail(l.number, "not a usable revocation list: \(e.reason)")
        }
        if let raw = try rawLine() {
            guard raw.bytes.isEmpty else { throw fail(raw.number, "the krl line comes last") }
            unread(raw)
        }
        return value
    }

    /// The host-key lines from `first` to a blank line or the end: each a known_hosts entry
    /// whose key decodes, written as `KnownHostsLine.text` writes it, sorted, once each.
    private mutating func readHostKeys(_ first: BundleTextLine) throws -> [String] {
        try readSortedLines(first, keyword: "host-key", copy: "host-key line") { line in
            let parsed: KnownHostsLine
            do {
                guard case .entry(let entry) = try KnownHostsLine.parse(line) else {
                    return "a host-key value must be a known_hosts entry, not a blank or comment line"
                }
                _ = try KnownHostsEntry(line: entry)
                parsed = entry
            } catch let e as KeyFormatError {
                return "not a usable known_hosts line: \(e.reason)"
            }
            guard parsed.text == line else {
                return "the known_hosts line is not written as hostbook writes it ('\(Self.shown(parsed.text))': single spaces, no space at either end)"
            }
            return nil
        }
    }

    /// The lines of one keyword (`host-key`, `certificate`) from `first` to a blank line or
    /// the end: at most `BundleText.maximumEntries`, each one `problem` finds nothing wrong
    /// with (its answer is the refusal's words), sorted and once each. `copy` names a line
    /// in "a second copy of the same ...".
    private mutating func readSortedLines(_ first: BundleTextLine, keyword: String, copy: String,
                                          problem: (String) throws -> String?) throws -> [String] {
        var lines: [String] = []
        var l = first
        while true {
            guard !l.indented, l.keyword == keyword else {
                throw fail(l.number, "expected a '\(keyword)' line or a blank line")
            }
            guard lines.count < BundleText.maximumEntries else { throw fail(l.number, "more than \(BundleText.maximumEntries) \(keyword) lines") }
            let line = try text(l)
            if let problem = try problem(line) { throw fail(l.number, problem) }
            if let last = lines.last, !BundleText.precedes(last, line) {
                throw fail(l.number, last == line ? "a second copy of the same \(copy)" : "\(keyword) lines are sorted: this one comes before the line above")
            }
            lines.append(line)
            guard let raw = try rawLine() else { return lines }
            if raw.bytes.isEmpty {
                unread(raw)
                return lines
            }
            l = try split(raw)
        }
    }
}
