// Paths to the committed fixtures (testkeys/, made by the scripts there), found from
// TestSupport's PackageRoot.
import Foundation
import XCTest
import SecureMemory
import KeyFormats
import TestSupport

enum Fixtures {
    static func testkeys(_ path: String) -> URL { PackageRoot.file("testkeys").appendingPathComponent(path) }

    static var opensshFixtures: URL { testkeys("openssh") }

    /// One key set in every form the upstream-style tests read (testkeys/make-sshkey-set.sh):
    /// openssh-key-v1, PEM, security keys, an unknown type, certificates, `.fp` and `.fp.bb`.
    static var sshkeySet: URL { testkeys("sshkey") }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

    /// Rows of a tab-separated MANIFEST, keyed by its header line.
    static func manifest(_ directory: String) throws -> [[String: String]] {
        let lines = try text(testkeys(directory + "/MANIFEST")).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// Field 2 of an `ssh-keygen -l` line stored in a `.fp` file.
    static func fingerprint(_ url: URL) throws -> String {
        let fields = try text(url).split(whereSeparator: { $0 == " " || $0 == "\n" })
        return String(fields.count > 1 ? fields[1] : fields[0])
    }

    static func passphrase(_ url: URL) throws -> SecretBytes {
        var raw = try bytes(url)
        while raw.last == 0x0a || raw.last == 0x0d { raw.removeLast() }
        return SecretBytes(consuming: &raw)
    }

    static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }
}

/// Asserts `body` throws a KeyFormatError of `kind`; returns it for further checks.
@discardableResult
func assertKeyError<T>(_ kind: KeyFormatError.Kind, _ message: @autoclosure () -> String = "",
                       file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) -> KeyFormatError? {
    do {
        _ = try body()
        XCTFail("expected \(kind), got success. \(message())", file: file, line: line)
    } catch let e as KeyFormatError {
        XCTAssertEqual(e.kind, kind, "\(message()): \(e.reason)", file: file, line: line)
        return e
    } catch {
        XCTFail("unexpected error \(error). \(message())", file: file, line: line)
    }
    return nil
}

/// Damaged copies of an input: truncations, single-byte changes spread over the file,
/// and garbage. Deterministic so a failure reproduces.
enum Damage {
    static func variants(of bytes: [UInt8], flips: Int = 24) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for cut in [0, 1, bytes.count / 3, bytes.count / 2, bytes.count - 40, bytes.count - 2] where cut >= 0 && cut < bytes.count {
            out.append(("truncated at \(cut)", Array(bytes.prefix(cut))))
        }
        let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var state: UInt64 = 0x9e3779b97f4a7c15
        for _ in 0..<flips {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let i = Int(state >> 33) % bytes.count
            var copy = bytes
            if let k = base64.firstIndex(of: copy[i]) {
                copy[i] = base64[(k + 1 + Int(state >> 50) % 63) % 64]
            } else {
                copy[i] ^= 0x20
            }
            out.append(("byte \(i) changed", copy))
        }
        out.append(("garbage", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
        return out
    }
}
