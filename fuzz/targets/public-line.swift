// One `.pub` / authorized_keys line, and whole public key files.
// The body is FuzzEntry.publicLine (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.publicLine(bytes) }
