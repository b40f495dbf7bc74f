// The bodies of the libFuzzer targets for HostStore's parsers of untrusted input
// (fuzz/targets/NAME.swift) and of their replay tests (Tests/HostStoreTests/
// FuzzRegressionTests.swift): both call these, so what the fuzzers ran and what the tests
// replay cannot drift apart. Each body must only not crash; thrown errors are expected.
// Internal: reached through `@testable import` (the fuzz build uses -enable-testing). The
// pure readers' own targets (json-stream, punycode) are ImportFormats' FuzzEntry.
#if canImport(Glibc)
import Glibc
#endif
import ImportFormats
import KeyFormats

enum FuzzEntry {
    /// Every target by its name (the folder names under fuzz/corpus and fuzz/crashers).
    static let targets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("tailscale-document", tailscaleDocument), ("known-hosts-file", knownHostsFile),
    ]

    /// How many bytes the input's source hands over per read: the first byte picks 1…64,
    /// so values and escapes are split across buffer refills.
    private static func pieceSize(_ bytes: [UInt8]) -> Int { 1 + Int(bytes.first ?? 0) % 64 }

    /// `tailscale status --json` / `tailscale debug netmap` documents: the reader, then the
    /// mapping of every device to a host (alias, address, patterns, Punycode of its names),
    /// and which of its names the document's tailnet speaks for.
    static func tailscaleDocument(_ bytes: [UInt8]) {
        guard let document = try? TailscaleImporter.readDocument(MemorySource(bytes, maxRead: pieceSize(bytes))) else { return }
        for node in document.nodes {
            let mapping = TailscaleHostMapping(node)
            _ = mapping.displayAlias
            for pattern in mapping.patterns { _ = document.tailnet.whyNotTrusted(pattern) }
            for line in node.sshHostKeys { _ = try? PublicKeyLine.parse(line) }
        }
    }

    /// A known_hosts file through the store's import (line split, markers, hashed names,
    /// `[host]:port` and pattern lists, duplicates) into a scratch database, then a check
    /// and an export of what it stored. The database is made once per process in a private
    /// temporary folder, emptied after every input, and removed at exit.
    static func knownHostsFile(_ bytes: [UInt8]) {
        guard let store = scratchStore.store else { return }
        _ = try? store.importKnownHosts(bytes, source: "fuzz")
        _ = try? store.entries(matching: HostLookupName(host: "host.example"))
        _ = try? store.entries(matching: HostLookupName(host: "host.example", port: 2222))
        _ = try? store.exportKnownHosts(hashed: false, salt: { [UInt8](repeating: 7, count: 20) })
        for sql in KnownHostsSQL.emptyForFuzzing { try? store.database.connection.execute(sql) }
    }

    nonisolated(unsafe) private static let scratchStore = ScratchStore()
    /// The scratch database's folder, removed by the `atexit` handler.
    nonisolated(unsafe) private static var scratchFolder: String?

    private final class ScratchStore {
        let store: KnownHostsStore?

        init() {
            var template = Array("/tmp/hostbook-fuzz-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { store = nil; return }
            let folder = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            FuzzEntry.scratchFolder = folder
            atexit {
                guard let folder = FuzzEntry.scratchFolder else { return }
                for name in ["hostbook.db", "hostbook.db-wal", "hostbook.db-shm", "hostbook.db-journal"] { unlink(folder + "/" + name) }
                rmdir(folder)
            }
            guard let database = try? HostDatabase.open(path: folder + "/hostbook.db") else { store = nil; return }
            try? database.connection.execute("PRAGMA synchronous = OFF")
            store = KnownHostsStore(database: database)
        }
    }
}
