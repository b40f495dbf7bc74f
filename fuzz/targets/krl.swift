// OpenSSH key revocation lists (`ssh-keygen -k`, `hostbook ca krl`): the reader, then the
// writer's output read back.
// The body is FuzzEntry.krl (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.krl(bytes) }
