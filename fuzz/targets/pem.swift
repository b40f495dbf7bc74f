// PEM / PKCS#1 / SEC1 / PKCS#8 private keys, without and with a passphrase.
// The body is FuzzEntry.pem (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.pem(bytes) }
