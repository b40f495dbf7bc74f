// The team-bundle text (docs/formats.md, "Team bundles"): whatever BundleText.parse accepts
// must render back to the same bytes and hold no control character. The body is
// FuzzEntry.bundleText (Sources/ImportFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import ImportFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.bundleText(bytes) }
