// Punycode (RFC 3492) and the xn-- label forms, both ways; encode → decode must give the
// label back. The body is FuzzEntry.punycode (Sources/ImportFormats/Fuzzing/FuzzEntry.swift),
// which the replay test calls too.
@testable import ImportFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.punycode(bytes) }
