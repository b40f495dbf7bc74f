// known_hosts lines (ssh-formats.md §5.2–5.5): the grammar, the key layer, the host-field
// matchers (patterns, hashed names, [host]:port) — every line of the input in turn.
// The body is FuzzEntry.knownHostsLine (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.knownHostsLine(bytes) }
