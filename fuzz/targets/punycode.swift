// Punycode (RFC 3492) and the xn-- label forms, both ways; encode → decode must give the
// label back. The body is FuzzEntry.punycode (Sources/HostStore/Fuzzing/FuzzEntry.swift),
// which the replay test calls too.
@testable import HostStore

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.punycode(bytes) }
