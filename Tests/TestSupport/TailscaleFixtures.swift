// Tailscale documents for the readers' and the importer's tests, written by hand in
// testdata/tailscale (its README says what each exercises). Each test target reads them
// into a document its own way (extensions there).
import Foundation

public enum TailscaleFixtures {
    public static func own(_ name: String) -> URL { PackageRoot.file("testdata/tailscale/\(name)") }

    public static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }
}
