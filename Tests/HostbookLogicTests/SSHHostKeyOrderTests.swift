// In-process (InProcessCommand runs Hostbook.main; was run on the binary).
// What `hostbook ssh` tells ssh about the keys it knows before the server shows one: the
// HostKeyAlgorithms preference of --print-config and the KnownHostsCommand's ORDER run, for
// a host on port 2222 with only a bare entry, with a bracketed entry, and with only a
// revoked bracketed entry. Both must follow the store's `[host]:port` fallback, the same
// one `known-hosts check` applies (a copy of the rule in the command would drift here).
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class SSHHostKeyOrderTests: XCTestCase {
    let ed = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP1bJvlrd+7p4T6xtakwqQR3DRoz67gRs0jN4BkEHc6T"
    let ec = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIb3BhJZk+vUQPg5TQc1koIzuGqloCq7wjr9LjlhG24IBeiFHLsdWw74HDlH4DrOmlxToVYk2lTdnjARleRByjk="

    func bed(_ lines: [String]) throws -> InProcessCommand {
        let fx = try InProcessCommand()
        let file = fx.dir.file("known_hosts")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try fx.ok("known-hosts", "import", file)
        try fx.ok("add", "h", "--hostname", "h.example", "--port", "2222")
        return fx
    }

    func preferred(_ fx: InProcessCommand) throws -> String? {
        let r = try fx.ok("ssh", "--print-config", "h")
        return r.stdout.split(separator: "\n").first { $0.hasPrefix("    HostKeyAlgorithms ") }.map { String($0.dropFirst(22)) }
    }

    func order(_ fx: InProcessCommand) throws -> String {
        try fx.ok("known-hosts", "lookup", "ORDER", "h", "h.example", "2222", "NONE", "NONE", "h").stdout
    }

    func checkStatus(_ fx: InProcessCommand, _ key: String) throws -> Int32 {
        try fx.run(["known-hosts", "check", "h.example", "--port", "2222", "--key", key]).status
    }

    func testOnlyABareEntry() throws {
        let fx = try bed(["h.example \(ed)"])
        XCTAssertEqual(try preferred(fx), "^ssh-ed25519")
        XCTAssertEqual(try order(fx), "h \(ed)\n")
        XCTAssertEqual(try checkStatus(fx, ed), 0, "check takes the bare name's answer too")
    }

    func testABracketedEntryAnswersAlone() throws {
        let fx = try bed(["h.example \(ed)", "[h.example]:2222 \(ec)"])
        XCTAssertEqual(try preferred(fx), "^ecdsa-sha2-nistp256")
        XCTAssertEqual(try order(fx), "h \(ec)\n")
        XCTAssertEqual(try checkStatus(fx, ec), 0)
        XCTAssertEqual(try checkStatus(fx, ed), 11, "the bare key is a change for [h.example]:2222")
    }

    func testOnlyARevokedBracketedEntryFallsBackLikeCheck() throws {
        let fx = try bed(["@revoked [h.example]:2222 \(ec)", "h.example \(ed)"])
        XCTAssertEqual(try checkStatus(fx, ed), 0, "check falls back to the bare name")
        XCTAssertEqual(try preferred(fx), "^ssh-ed25519")
        XCTAssertEqual(try order(fx), "h \(ed)\n")
    }
}
