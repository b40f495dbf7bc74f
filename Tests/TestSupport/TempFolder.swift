// A temporary folder for one test's files, removed when the object goes.
import Foundation

public final class TempFolder {
    public let path: String
    public var url: URL { URL(fileURLWithPath: path) }

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hoststore-test-\(UUID().uuidString)").path
        // 0700 whatever the umask: a database in a folder others can write is refused.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder (not recursive), sorted.
    public func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
