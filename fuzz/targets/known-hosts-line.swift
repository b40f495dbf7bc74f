// known_hosts lines (docs/formats.md, "known_hosts"): the grammar, the key layer, the
// host-field matchers (patterns, hashed names, [host]:port) — every line of the input in turn.
// The body is FuzzEntry.knownHostsLine (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the
// replay test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.knownHostsLine(bytes) }
