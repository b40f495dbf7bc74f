// The streaming JSON reader under the Tailscale importer: every value built down to a
// depth, in pieces of 1…64 bytes per read so tokens straddle buffer refills, then the whole
// input skipped in one call. The body is FuzzEntry.jsonStream
// (Sources/ImportFormats/Fuzzing/FuzzEntry.swift), which the replay test calls too.
@testable import ImportFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.jsonStream(bytes) }
