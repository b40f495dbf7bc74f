// SSHSIG signature files (bundle.txt.sig): armour, blob, render → parse, verification.
// The body is FuzzEntry.sshSignature (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the
// replay test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.sshSignature(bytes) }
