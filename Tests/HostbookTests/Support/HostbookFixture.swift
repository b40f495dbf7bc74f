// A temporary data folder and a `hostbook` runner bound to its database, for the host,
// snippet, doctor and reliability tests.
import Foundation
import TestSupport
import XCTest

final class HostbookFixture: HostbookRunning {
    let dir: TemporaryDirectory
    /// The database path every run gets through $HOSTBOOK_DB.
    let db: String
    var environment: [String: String]
    /// The ordinary account every run uses when the tests run as root (TestAccount); nil
    /// when they already run as an ordinary user, or for `asRoot` (tests of what root sees).
    let account: TestAccount?
    private let asRoot: Bool

    /// `asRoot`: hostbook runs as the test process's own user, root in CI; only for tests
    /// whose subject is root's view (files owned by other users, core dumps).
    init(asRoot: Bool = false) throws {
        self.asRoot = asRoot
        dir = try TemporaryDirectory()
        db = dir.file("data/hostbook.db")
        environment = ["HOSTBOOK_DB": db, "NO_COLOR": "1"]
        if TestAccount.needed && !asRoot {
            account = TestAccount.closedAtTheEndOfTheTest(try TestAccount())
            environment["HOME"] = account!.home
            environment["XDG_RUNTIME_DIR"] = account!.runtime
        } else {
            account = nil
        }
    }

    deinit { account?.close() }

    /// The user name hostbook and ssh run as.
    var userName: String {
        if let account { return account.name }
        guard let pw = getpwuid(getuid()) else { return "root" }
        return String(cString: pw.pointee.pw_name)
    }

    @discardableResult
    func run(_ args: [String], stdin: String? = nil, removing: [String] = []) throws -> HostbookResult {
        // An inherited $COLUMNS would make tables fit it; tests that want a width set it.
        let removing = environment["COLUMNS"] == nil ? removing + ["COLUMNS"] : removing
        if let account {
            return try account.run(HostbookProcess.binaryURL.path, args, stdin: stdin.map { Data($0.utf8) },
                                   environment: environment, removing: removing)
        }
        if asRoot {
            return try HostbookProcess.runAsTestProcess(args, stdin: stdin.map { Data($0.utf8) }, environment: environment, removing: removing)
        }
        return try HostbookProcess.run(args, stdin: stdin.map { Data($0.utf8) }, environment: environment, removing: removing)
    }

    @discardableResult
    func run(_ args: String..., stdin: String? = nil) throws -> HostbookResult { try run(args, stdin: stdin) }

    /// `run` with stdin as bytes (not necessarily UTF-8) and `extra` over the environment.
    @discardableResult
    func run(_ args: [String], bytes: Data?, environment extra: [String: String] = [:]) throws -> HostbookResult {
        let environment = self.environment.merging(extra) { $1 }
        if let account {
            return try account.run(HostbookProcess.binaryURL.path, args, stdin: bytes, environment: environment, removing: ["COLUMNS"])
        }
        return try HostbookProcess.run(args, stdin: bytes, environment: environment, removing: ["COLUMNS"])
    }

    /// Runs another program (ssh, ssh-add, ssh-keygen, git, ...) as the same user and with
    /// the same environment `run` gives hostbook, plus `extra`.
    @discardableResult
    func tool(_ executable: String, _ args: [String], stdin: String? = nil, environment extra: [String: String] = [:],
              timeout: TimeInterval = 120) throws -> HostbookResult {
        if let account {
            return try account.run(executable, args, stdin: stdin.map { Data($0.utf8) },
                                   environment: environment.merging(extra) { $1 }, removing: ["COLUMNS"], timeout: timeout)
        }
        return try ToolProcess.run(URL(fileURLWithPath: executable), args, stdin: stdin.map { Data($0.utf8) },
                                   environment: environment.merging(extra) { $1 }, removing: ["COLUMNS"], timeout: timeout)
    }

    /// HostbookRunning's one call, under ok, fails, json and files().
    func hostbook(_ argv: [String], stdin: String?) throws -> HostbookResult { try run(argv, stdin: stdin) }

    /// The data folder (the database's).
    var dataFolder: String { dir.file("data") }

    /// True when a Secret Service session is there for vault tests (scripts/with-keyring;
    /// a test account gets one of its own of the same kind).
    static var vaultAvailable: Bool { ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil }
}

/// The package root (this file is Tests/HostbookTests/Support/HostbookFixture.swift).
enum PackageRootPath {
    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }
}
