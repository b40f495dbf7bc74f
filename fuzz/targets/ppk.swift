// PuTTY .ppk files. A passphrase is tried only when the file's Argon2 cost is small, so
// the fuzzer spends its time in the parsers rather than in Argon2 (the cost ceilings
// themselves are checked by PPKKeyDerivation.checkSupported, which runs on every input).
// The body is FuzzEntry.ppk (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.ppk(bytes) }
