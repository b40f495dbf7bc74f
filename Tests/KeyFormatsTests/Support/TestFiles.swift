// Locating fixture files: testkeys/ in this repository, and the shared OpenSSH test data
// at ../shared/testdata relative to the package root (tests skip when it is absent).
import Foundation
import XCTest

enum TestFiles {
    /// The package root: three levels above this file (Tests/KeyFormatsTests/Support).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var opensshFixtures: URL { packageRoot.appendingPathComponent("testkeys/openssh") }

    static var sharedSSHKeyData: URL {
        packageRoot.appendingPathComponent("../shared/testdata/openssh-sshkey").standardizedFileURL
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

    /// Skips the test when the shared test data is not on this machine.
    static func requireSharedData() throws -> URL {
        let url = sharedSSHKeyData
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.md").path) else {
            throw XCTSkip("shared OpenSSH test data not found at \(url.path)")
        }
        return url
    }
}

/// Runs a tool (ssh-keygen) and returns its exit status and standard output.
enum Tool {
    static func run(_ path: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static var sshKeygen: String? {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") ? "/usr/bin/ssh-keygen" : nil
    }
}
