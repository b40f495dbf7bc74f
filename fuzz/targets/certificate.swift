// Certificate blobs (raw bytes) and their signature check; then the same bytes as a
// certificate line.
// The body is FuzzEntry.certificate (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.certificate(bytes) }
