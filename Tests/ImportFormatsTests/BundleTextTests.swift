// The team-bundle text (BundleText): canonical round trips, sorting, escaping of hostile
// strings, and every refusal naming its line; the bounds are counted, not timed.
import Foundation
import XCTest
import TestSupport
@testable import ImportFormats

final class BundleTextTests: XCTestCase {
    static let keyA = "AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"
    static let keyB = "AAAAC3NzaC1lZDI1NTE5AAAAIElLfGy9beTbZ0Aa7UXkYJIiX86wEpxVFr6a+Yx84s40"

    static let header = "hostbook-bundle 1\nname \"t\"\nserial 1\n"

    func parse(_ s: String) throws -> BundleDocument { try BundleText.parse(Array(s.utf8)) }

    /// The refusal of `text`, which must name `line` and contain `words`.
    func assertRefused(_ text: String, line: Int, _ words: String, file: StaticString = #filePath, fileLine: UInt = #line) {
        XCTAssertThrowsError(try BundleText.parse(Array(text.utf8)), file: file, line: fileLine) { error in
            guard let e = error as? BundleTextError else { return XCTFail("\(error)", file: file, line: fileLine) }
            XCTAssertEqual(e.line, line, e.description, file: file, line: fileLine)
            XCTAssertTrue(e.message.contains(words), "'\(e.message)' lacks '\(words)'", file: file, line: fileLine)
        }
    }

    func testRenderSortsAndParseGivesTheDocumentBack() throws {
        let doc = BundleDocument(
            name: "team", serial: 42,
            hosts: [BundleHost(name: "web", hostname: "web.example", port: 2200, user: "www", tags: ["prod", "b", "prod"], aliases: ["w2", "w1"], jump: "bastion", note: "n", key: "k"),
                    BundleHost(name: "bastion", hostname: "b.example")],
            snippets: [BundleSnippet(name: "z", command: "ls"), BundleSnippet(name: "a", command: "uptime", description: "d")],
            hostKeys: ["web.example ssh-ed25519 \(Self.keyA)", "@revoked old.example ssh-ed25519 \(Self.keyB)", "web.example ssh-ed25519 \(Self.keyA)"])
        let text = BundleText.render(doc)
        XCTAssertEqual(String(decoding: text, as: UTF8.self), """
        hostbook-bundle 1
        name "team"
        serial 42

        host "bastion"
          hostname "b.example"
          port 22

        host "web"
          hostname "web.example"
          port 2200
          user "www"
          tag "b"
          tag "prod"
          alias "w1"
          alias "w2"
          jump "bastion"
          note "n"
          key "k"

        snippet "a"
          command "uptime"
          description "d"

        snippet "z"
          command "ls"

        host-key "@revoked old.example ssh-ed25519 \(Self.keyB)"
        host-key "web.example ssh-ed25519 \(Self.keyA)"

        """)
        let back = try BundleText.parse(text)
        XCTAssertEqual(back.hosts.map(\.name), ["bastion", "web"])
        XCTAssertEqual(back.hosts[1], BundleHost(name: "web", hostname: "web.example", port: 2200, user: "www", tags: ["b", "prod"], aliases: ["w1", "w2"], jump: "bastion", note: "n", key: "k"))
        XCTAssertEqual(back.snippets, [BundleSnippet(name: "a", command: "uptime", description: "d"), BundleSnippet(name: "z", command: "ls")])
        XCTAssertEqual(back.hostKeys.count, 2)
        XCTAssertEqual(BundleText.render(back), text)
        // Sorting is by bytes: upper case before lower case, the same on every machine.
        let mixed = BundleText.render(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "b", hostname: "b"), BundleHost(name: "C", hostname: "c")]))
        XCTAssertEqual(try BundleText.parse(mixed).hosts.map(\.name), ["C", "b"])
    }

    func testHostileStringsRoundTripExactly() throws {
        let hostile = ["a \"quoted\" # not a comment", "back\\slash\\\\", "\"", "\\", "", "  spaces  ", "café ☕ 𝄞 日本",
                       "host-key \"x\"\n", "\u{202E}bidi", "end\\"].filter { !$0.contains("\n") }
        for s in hostile {
            let doc = BundleDocument(name: "t", serial: 1,
                                     hosts: [BundleHost(name: "h", hostname: s, port: 1, user: s, tags: [s], aliases: [s], jump: s, note: s, key: s)],
                                     snippets: [BundleSnippet(name: s, command: s, description: s)])
            let text = BundleText.render(doc)
            XCTAssertEqual(try BundleText.parse(text), doc, s)
            XCTAssertEqual(text.filter { $0 == 0x0A }.count, 3 + 10 + 4, "one line per field: \(s)")
        }
    }

    func testControlCharactersCannotBeWrittenOrRead() throws {
        for c in ["\u{0}", "\u{7}", "\t", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\n"] {
            let doc = BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "h", hostname: "a\(c)b")])
            let text = BundleText.render(doc)
            XCTAssertFalse(text.contains { $0 < 0x20 && $0 != 0x0A }, "no raw control byte is written")
            XCTAssertEqual(text.filter { $0 == 0x0A }.count, 7, "a newline in a value is not a line")
            assertRefused(String(decoding: text, as: UTF8.self), line: 6, "escape")
        }
        // Raw control characters in the text are refused with the line named.
        assertRefused(Self.header + "\nhost \"h\"\n  hostname \"a\u{1B}[31m\"\n  port 22\n", line: 6, "U+001B")
        assertRefused(Self.header + "\nhost \"h\"\n  hostname \"a\u{9B}\"\n  port 22\n", line: 6, "U+009B")
        assertRefused(Self.header + "\nhost \"h\"\n  hostname \"a\tb\"\n  port 22\n", line: 6, "U+0009")
        assertRefused("hostbook-bundle 1\r\nname \"t\"\r\n", line: 1, "carriage return")
        assertRefused("hostbook-bundle 1\nname \"t\"\r\nserial 1\n", line: 2, "carriage return")
    }

    func testTheSeedsAreCanonical() throws {
        let folder = PackageRoot.file("fuzz/corpus/bundle-text")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(seeds, ["ca", "empty", "hashed", "team"])
        for seed in seeds {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(seed)))
            XCTAssertEqual(BundleText.render(try BundleText.parse(bytes)), bytes, seed)
        }
        let team = try BundleText.parse(Array(try Data(contentsOf: folder.appendingPathComponent("team"))))
        XCTAssertEqual(team.hosts[1].note, "primary \"db\" # not a comment, café")
        XCTAssertEqual(team.snippets[0].command, "journalctl -f -u \"app\" | grep 'x\\y'")
        XCTAssertEqual(team.hostKeys.filter { $0.hasPrefix("@") }.count, 2)
        let hashed = try BundleText.parse(Array(try Data(contentsOf: folder.appendingPathComponent("hashed"))))
        XCTAssertEqual(hashed.serial, UInt64.max)
    }

    func testHeaderNameAndSerialRefusals() {
        assertRefused("", line: 0, "empty")
        assertRefused("hostbook-bundle 2\nname \"t\"\nserial 1\n", line: 1, "unknown bundle format version '2'")
        assertRefused("hello\n", line: 1, "not a hostbook bundle")
        assertRefused("hostbook-bundle 1\n", line: 2, "ends before its 'name'")
        assertRefused("hostbook-bundle 1\nname \"t\"", line: 2, "does not end with a newline")
        assertRefused("hostbook-bundle 1\nname \"-t\"\nserial 1\n", line: 2, "invalid bundle name")
        assertRefused("hostbook-bundle 1\nname \"t\"\nserial 01\n", line: 3, "leading zeros")
        assertRefused("hostbook-bundle 1\nname \"t\"\nserial 18446744073709551616\n", line: 3, "larger than")
        assertRefused("hostbook-bundle 1\nname \"t\"\nserial -1\n", line: 3, "double quotes or a number")
        assertRefused("hostbook-bundle 1\nserial 1\nname \"t\"\n", line: 2, "expected 'name'")
        assertRefused("hostbook-bundle 1\nname t\nserial 1\n", line: 2, "double quotes")
        assertRefused("hostbook-bundle 1\nname  \"t\"\nserial 1\n", line: 2, "double quotes or a number")
        assertRefused("hostbook-bundle 1\nname \"t\" \nserial 1\n", line: 2, "after the closing quote")
        assertRefused("hostbook-bundle 1\nname \"t\nserial 1\n", line: 2, "no closing quote")
        assertRefused("hostbook-bundle 1\nname \"t\\n\"\nserial 1\n", line: 2, "unknown escape '\\n'")
        assertRefused(Self.header + "\n", line: 4, "blank line at the end")
    }

    func testHostRefusalsNameTheLine() {
        let h = Self.header + "\nhost \"a\"\n  hostname \"a\"\n  port 22\n"
        XCTAssertNoThrow(try parse(h))
        assertRefused(h + "\nhost \"A\"\n  hostname \"b\"\n  port 22\n", line: 9, "a second host named 'A' (the first is on line 5")
        assertRefused(h + "\nhost \"a\"\n  hostname \"b\"\n  port 22\n", line: 9, "a second host")
        assertRefused(Self.header + "\nhost \"b\"\n  hostname \"a\"\n  port 22\n\nhost \"a\"\n  hostname \"b\"\n  port 22\n", line: 9, "out of order")
        assertRefused(h + "  colour \"red\"\n", line: 8, "unknown host field 'colour'")
        assertRefused(h + "  port 23\n", line: 8, "a second 'port'")
        assertRefused(Self.header + "\nhost \"a\"\n  port 22\n  hostname \"a\"\n", line: 7, "'hostname' is out of order")
        assertRefused(Self.header + "\nhost \"a\"\n  hostname \"a\"\n", line: 5, "has no port")
        assertRefused(Self.header + "\nhost \"a\"\n  port 22\n", line: 5, "has no hostname")
        assertRefused(Self.header + "\nhost \"a\"\n  hostname \"a\"\n  port \"22\"\n", line: 7, "whole number")
        assertRefused(Self.header + "\nhost \"a\"\n  hostname \"a\"\n  port 123456\n", line: 7, "at most 5 digits")
        assertRefused(h + "  tag \"b\"\n  tag \"a\"\n", line: 9, "tag 'a' is out of order")
        assertRefused(h + "  tag \"a\"\n  tag \"a\"\n", line: 9, "a second tag 'a'")
        assertRefused(h + "  alias \"x\"\n  alias \"X\"\n", line: 9, "a second alias")
        assertRefused(h + "   tag \"a\"\n", line: 8, "expected a field name")
        assertRefused(h + "tag \"a\"\n", line: 8, "expected a blank line before 'tag'")
        assertRefused(h + "\n\nhost \"b\"\n", line: 9, "two blank lines")
        assertRefused(h + "\nwidget \"b\"\n", line: 9, "unknown entry 'widget'")
        assertRefused(h + "\n  hostname \"b\"\n", line: 9, "outside a host or snippet")
        assertRefused(Self.header + "\nsnippet \"s\"\n  command \"c\"\n\nhost \"a\"\n  hostname \"a\"\n  port 22\n", line: 8, "hosts come before snippets")
    }

    func testSnippetAndHostKeyRefusals() {
        let s = Self.header + "\nsnippet \"s\"\n  command \"c\"\n"
        XCTAssertNoThrow(try parse(s))
        assertRefused(Self.header + "\nsnippet \"s\"\n  description \"d\"\n", line: 5, "has no command")
        assertRefused(s + "\nsnippet \"S\"\n  command \"c\"\n", line: 8, "a second snippet")
        assertRefused(s + "  hostname \"x\"\n", line: 7, "unknown snippet field 'hostname'")
        let k = "host-key \"a.example ssh-ed25519 \(Self.keyA)\"\n"
        XCTAssertNoThrow(try parse(Self.header + "\n" + k))
        assertRefused(Self.header + "\n" + k + k, line: 6, "a second copy")
        assertRefused(Self.header + "\nhost-key \"b.example ssh-ed25519 \(Self.keyA)\"\n" + k, line: 6, "sorted")
        assertRefused(Self.header + "\nhost-key \"a.example  ssh-ed25519 \(Self.keyA)\"\n", line: 5, "as hostbook writes it")
        assertRefused(Self.header + "\nhost-key \"a.example ssh-ed25519 AAAA\"\n", line: 5, "not a usable known_hosts line")
        assertRefused(Self.header + "\nhost-key \"a.example ssh-foo \(Self.keyA)\"\n", line: 5, "unknown key type")
        assertRefused(Self.header + "\nhost-key \"# comment\"\n", line: 5, "not a blank or comment")
        assertRefused(Self.header + "\nhost-key \"@bogus a ssh-ed25519 \(Self.keyA)\"\n", line: 5, "unknown marker")
        assertRefused(Self.header + "\n" + k + "\nhost-key \"b ssh-ed25519 \(Self.keyA)\"\n", line: 7, "a blank line among the host keys")
        assertRefused(Self.header + "\n" + k + "\nsnippet \"s\"\n  command \"c\"\n", line: 7, "snippets come before host keys")
        assertRefused(Self.header + "\n" + k + "  command \"c\"\n", line: 6, "expected a 'host-key' line or a blank line")
        assertRefused(Self.header + "\n" + k + "\n", line: 6, "a blank line at the end")
    }

    /// The bounds are refused before the work: size, line length, line count and entries.
    func testBoundsAreRefused() {
        let big = [UInt8](repeating: 0x61, count: BundleText.maximumBytes + 1)
        XCTAssertThrowsError(try BundleText.parse(big)) { XCTAssertEqual(($0 as? BundleTextError)?.line, 0) }
        let long = Self.header + "\nhost \"a\"\n  hostname \"" + String(repeating: "x", count: BundleText.maximumLineBytes) + "\"\n  port 22\n"
        assertRefused(long, line: 6, "longer than")
        // More hosts than allowed: the refusal comes at the first one over the limit.
        var many = Self.header
        many.reserveCapacity(BundleText.maximumEntries * 40)
        for i in 0...BundleText.maximumEntries {
            many += "\nhost \"h\(String(repeating: "0", count: 6 - String(i).count) + String(i))\"\n  hostname \"a\"\n  port 22\n"
        }
        assertRefused(many, line: 4 + 4 * BundleText.maximumEntries + 1, "more than \(BundleText.maximumEntries) hosts")
        // More lines than allowed (each host's tags are lines too).
        var lines = Self.header + "\nhost \"a\"\n  hostname \"a\"\n  port 22\n"
        lines.reserveCapacity(BundleText.maximumLines * 12)
        for i in 0..<BundleText.maximumLines {
            lines += "  tag \"\(String(repeating: "0", count: 7 - String(i).count) + String(i))\"\n"
        }
        assertRefused(lines, line: BundleText.maximumLines + 1, "more than \(BundleText.maximumLines) lines")
    }

    func testBundleNames() {
        for good in ["team", "a", "Team-1.prod_x", String(repeating: "n", count: 64)] { XCTAssertTrue(BundleName.isValid(good), good) }
        for bad in ["", ".hidden", "-x", "a b", "a/b", "../x", "é", String(repeating: "n", count: 65), "a\u{1B}"] {
            XCTAssertFalse(BundleName.isValid(bad), bad)
        }
        XCTAssertFalse(BundleName.problem("a\u{1B}")!.contains("\u{1B}"), "the name is escaped in the message")
        XCTAssertEqual(BundleName.source("team"), "bundle:team")
    }
}
