// RFC 4716 "SSH2 PUBLIC KEY" blocks; what parses must re-encode and parse back equal.
// The body is FuzzEntry.rfc4716 (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.rfc4716(bytes) }
