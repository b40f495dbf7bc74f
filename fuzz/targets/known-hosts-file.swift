// A whole known_hosts file through `KnownHostsStore.importKnownHosts` (line split, markers,
// hashed names, pattern lists, [host]:port, duplicates) into a scratch database, then a
// check and an export. The body is FuzzEntry.knownHostsFile
// (Sources/HostStore/Fuzzing/FuzzEntry.swift), which the replay test calls too.
@testable import HostStore

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.knownHostsFile(bytes) }
