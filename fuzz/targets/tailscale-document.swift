// `tailscale status --json` and `tailscale debug netmap` documents: TailscaleDocumentReader,
// then each device mapped to a host (alias, address, patterns, host key lines). The body is
// FuzzEntry.tailscaleDocument (Sources/HostStore/Fuzzing/FuzzEntry.swift), which the
// replay test calls too.
@testable import HostStore

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.tailscaleDocument(bytes) }
