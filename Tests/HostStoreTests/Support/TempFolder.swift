// A temporary folder for one test's database files, removed afterwards.
import Foundation

final class TempFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hoststore-test-\(UUID().uuidString)").path
        // 0700 whatever the umask: a database in a folder others can write is refused.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The package root, found from this file's path (Tests/HostStoreTests/Support/...).
enum PackageRoot {
    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }
}
