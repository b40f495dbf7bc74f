// Where the repository's committed test data is: the package root, found from this file's
// path (Tests/TestSupport/PackageRoot.swift). Every fixture a test reads is in the clone
// (testkeys/, testdata/, fuzz/), made by the scripts beside it or written by hand there.
import Foundation

public enum PackageRoot {
    /// The package root (the folder holding Package.swift).
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    public static var path: String { url.path }

    /// `relative` below the package root, e.g. "testkeys/openssh" or "fuzz/corpus".
    public static func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}
