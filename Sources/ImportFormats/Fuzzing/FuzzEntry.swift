// The bodies of the libFuzzer targets for ImportFormats' readers (fuzz/targets/NAME.swift)
// and of their replay tests (Tests/ImportFormatsTests/FuzzRegressionTests.swift): both call
// these, so what the fuzzers ran and what the tests replay cannot drift apart. Each body
// must only not crash; thrown errors are expected. Internal: reached through
// `@testable import` (the fuzz build uses -enable-testing). The tailscale-document target,
// which also maps devices to hosts, is HostStore's (Sources/HostStore/Fuzzing).

enum FuzzEntry {
    /// Every target by its name (the folder names under fuzz/corpus and fuzz/crashers).
    static let targets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("json-stream", jsonStream), ("punycode", punycode), ("bundle-text", bundleText),
    ]

    /// How many bytes the input's source hands over per read: the first byte picks 1…64,
    /// so values and escapes are split across buffer refills.
    static func pieceSize(_ bytes: [UInt8]) -> Int { 1 + Int(bytes.first ?? 0) % 64 }

    /// JSONStreamReader: every value built (objects, arrays, strings, integers, booleans)
    /// down to a depth, then skipped; and the whole input skipped in one call.
    static func jsonStream(_ bytes: [UInt8]) {
        let built = JSONStreamReader(MemorySource(bytes, maxRead: pieceSize(bytes)), chunkSize: 16)
        if (try? built.skipByteOrderMark()) == false {
            _ = try? walk(built, depth: 0)
            _ = try? built.expectEnd()
        }
        let skipped = JSONStreamReader(MemorySource(bytes))
        _ = try? skipped.skipValue()
        _ = try? skipped.atEnd()
    }

    private static func walk(_ json: JSONStreamReader, depth: Int) throws {
        if depth > 64 { return try json.skipValue() }
        switch try json.peekKind() {
        case .object: try json.readObject { _ in try walk(json, depth: depth + 1) }
        case .array: try json.readArray { try walk(json, depth: depth + 1) }
        case .string: _ = try json.readOptionalString(path: "s")
        case .number: _ = try json.readOptionalInt(path: "n")
        case .bool: _ = try json.readOptionalBool(path: "b")
        case .null: _ = try json.readOptionalString(path: "null")
        }
    }

    /// Punycode (RFC 3492) both ways, on the input as one label and as a dotted name;
    /// a label that encodes must decode to itself.
    static func punycode(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Punycode.decode(text)
        _ = Punycode.unicodeLabel(text)
        _ = Punycode.asciiName(text)
        _ = HostNameSanitizer.label(from: text)
        if let encoded = Punycode.encode(text), Punycode.decode(encoded) != text {
            fatalError("Punycode round trip changed the label")
        }
    }

    /// BundleText.parse; what it accepts must be canonical (render gives the same bytes back)
    /// and hold no control character.
    static func bundleText(_ bytes: [UInt8]) {
        guard let document = try? BundleText.parse(bytes) else { return }
        if BundleText.render(document) != bytes {
            fatalError("BundleText accepted text that render does not write back byte for byte")
        }
        var strings = [document.name] + document.hostKeys + document.certificates + [document.revocationList].compactMap { $0 }
        for h in document.hosts {
            strings += [h.name, h.hostname] + h.tags + h.aliases + [h.user, h.jump, h.note, h.key].compactMap { $0 }
        }
        for s in document.snippets { strings += [s.name, s.command] + [s.description].compactMap { $0 } }
        for s in strings where s.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            fatalError("BundleText accepted a control character")
        }
    }
}
